import { MessageFactory, type TurnContext } from 'botbuilder';
import { renderWelcomeCard } from './welcomeCard';
import { readerOfTurn } from '../conversations/reply';
import type { BotIdentity } from '../shared/botIdentity';
import { senderKnown } from '../knownSender';
import type { WelcomeState } from './welcomeState';

/**
 * Welcomes a person once per conversation when the bot is installed or added: Teams sends both an
 * `installationUpdate` and a `conversationUpdate`, and a restart must not welcome anyone again.
 * Someone the directory does not know is not welcomed (nothing of Steward is theirs to use), and
 * no conversation of theirs is marked (see knownSender.ts).
 */
export async function welcome(
  context: TurnContext,
  welcomeState: WelcomeState,
  identity: Pick<BotIdentity, 'knows'>,
): Promise<void> {
  const conversationId = context.activity.conversation?.id;
  if (!conversationId || !(await senderKnown(context, identity))) return;
  if (!(await welcomeState.markWelcomed(conversationId))) return;
  const name = context.activity.from?.name ?? null;
  await context.sendActivity(
    MessageFactory.attachment(renderWelcomeCard({ userName: name }, readerOfTurn(context))),
  );
}
