import { MessageFactory, type TurnContext } from 'botbuilder';
import { renderWelcomeCard } from './welcomeCard';
import { readerOfTurn } from '../conversations/reply';
import type { WelcomeState } from './welcomeState';

/**
 * Welcomes a person once per conversation when the bot is installed or added: Teams sends both an
 * `installationUpdate` and a `conversationUpdate`, and a restart must not welcome anyone again.
 */
export async function welcome(context: TurnContext, welcomeState: WelcomeState): Promise<void> {
  const conversationId = context.activity.conversation?.id;
  if (!conversationId || !(await welcomeState.markWelcomed(conversationId))) return;
  const name = context.activity.from?.name ?? null;
  await context.sendActivity(
    MessageFactory.attachment(renderWelcomeCard({ userName: name }, readerOfTurn(context))),
  );
}
