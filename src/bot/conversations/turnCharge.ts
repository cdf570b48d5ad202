import type { TurnContext } from 'botbuilder';
import { type StewardClient, TurnCharge } from '../../client';
import type { BotIdentity } from '../shared/botIdentity';

/** Where a turn keeps the charge its calls share. */
const CHARGE = Symbol('steward.turnCharge');

/**
 * `deps` whose client makes this turn's calls as the person cost their rate-limit budget once: a
 * typed message that reads the templates, looks people up, reads the labels and previews the
 * request is one charge, as a press of a card is. The calls after the first carry the bot's own app
 * token as proof (`TurnCharge`); calls the bot makes as itself are untouched.
 */
export function chargedOnce<D extends { client: StewardClient; identity: BotIdentity }>(
  context: TurnContext,
  deps: D,
): D {
  let charge = context.turnState.get(CHARGE) as TurnCharge | undefined;
  if (!charge) {
    charge = new TurnCharge(() => deps.identity.appToken());
    context.turnState.set(CHARGE, charge);
  }
  return { ...deps, client: deps.client.inTurn(charge) };
}
