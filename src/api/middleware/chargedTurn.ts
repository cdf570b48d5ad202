import type { Caller } from '../../domain/caller';
import { Forbidden, ValidationFailed } from '../../domain/errors';
import type { Authenticator } from './authenticate';
import type { OnBehalfOfPolicy } from './onBehalfOf';

/**
 * The header with which Steward's bot says that a call it makes with a person's own token belongs
 * to a turn of theirs (one typed message, one card pressed) already charged to their budget: the
 * call is then not charged again. Its value is the bot's own app token (`Bearer <token>`), which is
 * what grants it: a person's token alone never can, and the call is still authorised, audited and
 * answered as the person.
 */
export const CHARGED_TURN_HEADER = 'x-steward-charged-turn';

/**
 * Whether the call is one of a turn the bot already charged to the person calling: false without
 * the header. The header must carry a token of the bot's own app (otherwise 403: anyone else could
 * spend nothing), on a call made with a person's token and naming nobody in `X-Steward-On-Behalf-Of` (otherwise
 * 400).
 */
export async function isChargedTurn(
  caller: Pick<Caller, 'kind'>,
  header: string | string[] | undefined,
  onBehalfOf: string | string[] | undefined,
  authenticator: Authenticator,
  policy: OnBehalfOfPolicy | undefined,
): Promise<boolean> {
  if (header === undefined) return false;
  const refused = new Forbidden('Only Steward’s bot may mark a call as part of a charged turn.');
  const botAppId = policy?.botAppId?.toLowerCase();
  if (!botAppId || typeof header !== 'string') throw refused;
  const bot = await authenticator.authenticate(header).catch(() => undefined);
  if (bot?.kind !== 'app' || bot.id.toLowerCase() !== botAppId) throw refused;
  // Naming a person for the budget and saying their turn is charged are two ways of one bot call.
  if (caller.kind !== 'user' || onBehalfOf !== undefined)
    throw new ValidationFailed('The X-Steward-Charged-Turn header is not valid.', [
      {
        code: 'invalidValue',
        target: CHARGED_TURN_HEADER,
        message: 'Only a call made as a person is part of their turn.',
      },
    ]);
  return true;
}
