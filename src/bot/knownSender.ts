import type { TurnContext } from 'botbuilder';
import type { BotIdentity } from './shared/botIdentity';

/** Where a turn keeps whether its sender is known, once asked. */
const KNOWN = Symbol('steward.knownSender');

/**
 * Whether the bot keeps records for the sender of this turn (`BotIdentity.knows`), asked at most
 * once a turn and only when something is about to be kept. A sender the directory does not know
 * leaves nothing behind (no conversation reference, no language, no welcome mark): each stored row
 * would otherwise be one an unknown sender could make by the thousand, one message each.
 */
export function senderKnown(context: TurnContext, identity: Pick<BotIdentity, 'knows'>): Promise<boolean> {
  let known = context.turnState.get(KNOWN) as Promise<boolean> | undefined;
  if (!known) {
    known = identity.knows(context);
    context.turnState.set(KNOWN, known);
  }
  return known;
}
