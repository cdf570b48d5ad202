import type { Caller } from '../../domain/caller';
import { Forbidden, ValidationFailed } from '../../domain/errors';
import type { PersonCheck } from './authenticate';

/**
 * The header with which Steward's bot, calling with its own app token, names the person it calls
 * for (the requester whose progress card it is drawing): the call then counts against that
 * person's rate limit, not the bot's. It changes nothing else: the call is still authorised, and
 * audited, as the bot's app.
 */
export const ON_BEHALF_OF_HEADER = 'x-steward-on-behalf-of';

/** Who may name a person in `X-Steward-On-Behalf-Of`. */
export interface OnBehalfOfPolicy {
  /**
   * The application id of Steward's bot (`MicrosoftAppId`; the seeded bot app in embedded mode): the
   * only caller whose token may carry the header. Undefined: nobody may.
   */
  botAppId: string | undefined;
  /** Whether an id is a person of the directory. */
  isPerson: PersonCheck;
}

const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id whose budget a call spends: the caller's, or, when the bot's own app token names a person
 * of the directory in `X-Steward-On-Behalf-Of`, that person's. The header from anyone else is a
 * 403 (an app could otherwise spend someone's budget); a value that is not one object id of a
 * person of the directory is a 400.
 */
export async function budgetHolderOf(
  caller: Pick<Caller, 'id' | 'kind'>,
  header: string | string[] | undefined,
  policy: OnBehalfOfPolicy | undefined,
): Promise<{ id: string; onBehalfOf?: string }> {
  if (header === undefined) return { id: caller.id };
  const botAppId = policy?.botAppId?.toLowerCase();
  if (caller.kind !== 'app' || !botAppId || caller.id.toLowerCase() !== botAppId) {
    throw new Forbidden('Only Steward’s bot may call on behalf of a person (X-Steward-On-Behalf-Of).');
  }
  const value = typeof header === 'string' ? header.trim() : '';
  const problem = (message: string) =>
    new ValidationFailed('The X-Steward-On-Behalf-Of header is not valid.', [
      { code: 'invalidValue', target: ON_BEHALF_OF_HEADER, message },
    ]);
  if (!OBJECT_ID.test(value)) throw problem('Name one person by their object id (a GUID).');
  if (!(await policy!.isPerson(value))) throw problem('The header names nobody in the directory.');
  return { id: value, onBehalfOf: value };
}
