import type { StewardClient } from '../client';
import { isStatus } from './apiFailures';
import type { ApprovalConversation } from './approvals/approvals';
import { readerOfTurn, type Reply } from './conversations/reply';
import { say } from './i18n/catalog';
import type { MessageKey } from './i18n/en';

/** What the access check of a verb reads of its turn: the card's data and the bot's records. */
export interface AccessTurn {
  context: Parameters<typeof readerOfTurn>[0];
  data: Record<string, unknown>;
  deps: { approvals: Pick<ApprovalConversation, 'jobOf'> };
}

/**
 * What a verb's answer may show of what the bot keeps, and so how the person's right to see it is
 * checked. A card's data is whatever its sender wrote (any id at all), so a verb that draws a card
 * from the bot's own records (an approval, a team's notice) shows it only to whom the API itself
 * would show it, asked as the person before the verb runs (`runVerb` in verbs.ts, for every verb):
 *
 * - `throughApi`: the answer shows only what the API gives the person in this turn (its refusals
 *   included), or what they sent; the API decides, nothing more to check.
 * - `ownSettings`: nothing but the person's own settings or help; nobody else's data.
 * - `postedToThem`: a card the bot posted to this very person (an owner's guest review, the
 *   lifecycle cards' refresh), redrawn only for a person its record lists; anyone else asks the API.
 * - `approval`: a request's approval card: shown only to whom `GET /jobs/{id}` shows the request
 *   (its requester, the approvers of its stages, admins), the job being the one the bot recorded
 *   for the approval.
 * - `teamOwner`: a team's notice or drift card: shown only to whom `GET /teams/{id}/lifecycle`
 *   answers (its owners, governance managers and admins), as the buttons' own routes decide.
 */
export type VerbAccess =
  | { sees: 'throughApi' }
  | { sees: 'ownSettings' }
  | { sees: 'postedToThem' }
  | { sees: 'approval'; id: string }
  | { sees: 'teamOwner'; id: string };

const text = (data: Record<string, unknown>, name: string): string => {
  const value = data[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

export const THROUGH_API: VerbAccess = { sees: 'throughApi' };
export const OWN_SETTINGS: VerbAccess = { sees: 'ownSettings' };
export const POSTED_TO_THEM: VerbAccess = { sees: 'postedToThem' };
/** The approval the card's `approvalId` names. */
export const APPROVAL: VerbAccess = { sees: 'approval', id: 'approvalId' };
/** The team the card's `teamId` names. */
export const TEAM_OWNER: VerbAccess = { sees: 'teamOwner', id: 'teamId' };

/** The refusal of each check, said without anything of what was asked for. */
const REFUSALS: Record<'approval' | 'teamOwner', MessageKey> = {
  approval: 'approval.notVisible',
  teamOwner: 'lifecycle.notOwnerOfThis',
};

/** Whether the check of `access` needs the API as the person (so the verb runs as them). */
export function needsCaller(access: VerbAccess): boolean {
  return access.sees === 'approval' || access.sees === 'teamOwner';
}

/**
 * The refusal when the person may not see what `access` names, asked of the API as them; undefined
 * when they may (or when the bot keeps nothing under that id, so there is nothing of it to show:
 * the verb says so, or asks the API).
 */
export async function refusalOf(
  api: StewardClient,
  turn: AccessTurn,
  access: VerbAccess,
): Promise<Reply | undefined> {
  if (access.sees !== 'approval' && access.sees !== 'teamOwner') return undefined;
  const id = text(turn.data, access.id);
  if (!id) return undefined;
  let read: () => Promise<unknown>;
  if (access.sees === 'approval') {
    const jobId = await turn.deps.approvals.jobOf(id);
    if (!jobId) return undefined;
    read = () => api.getJob(jobId);
  } else {
    read = () => api.getTeamLifecycle(id);
  }
  try {
    await read();
    return undefined;
  } catch (error) {
    // 404 for what the person may not know of, 403 for what they may not do: no either way.
    if (!isStatus(error, 404) && !isStatus(error, 403)) throw error;
    return { kind: 'text', text: say(readerOfTurn(turn.context), REFUSALS[access.sees]) };
  }
}
