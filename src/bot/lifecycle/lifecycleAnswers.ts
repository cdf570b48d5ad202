import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { CardViewer } from '../cards/cardRefresh';
import { type LifecycleAnswer, teamNameText } from './lifecycleOutcome';
import type { LifecycleNoticeData } from './lifecycleVerbData';
import { say } from '../i18n/catalog';
import type { MessageKey } from '../i18n/en';
import type { LifecycleConversation } from './lifecycle';
import { noticeCard } from './lifecycleNotice';
import type { NoticeKind, NoticeRecord, NoticeRecords } from './lifecycleRecords';
import { viewerOfTurn } from '../conversations/cardViewer';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';

/** What an answer on a lifecycle card needs. */
export interface LifecycleAnswerDependencies {
  lifecycle: LifecycleConversation;
  records: NoticeRecords;
}

/** One press of a lifecycle card's button: who, on which card, about which team. */
interface Press {
  context: TurnContext;
  api: StewardClient;
  deps: LifecycleAnswerDependencies;
  kind: NoticeKind;
  teamId: string;
  record: NoticeRecord;
  viewer: CardViewer;
  /** The presser's object id. */
  ownerId: string;
}

/** The refusals an answer can meet, as the card's sentence (403 and 404 alike: not an owner). */
type Refusals = Partial<Record<403 | 404 | 409, MessageKey>>;

const NOT_OWNER: Refusals = { 403: 'lifecycle.notOwner', 404: 'lifecycle.notOwner' };

async function pressOf(
  context: TurnContext,
  api: StewardClient,
  deps: LifecycleAnswerDependencies,
  data: LifecycleNoticeData,
  kind: NoticeKind,
): Promise<Press> {
  const teamId = typeof data.teamId === 'string' ? data.teamId : '';
  // A card the bot no longer remembers (or a button of another card, such as the list of teams
  // expiring soon) still answers, about the team it names, read from the team's lifecycle.
  const record = (teamId && (await deps.records.get(kind, teamId))) || (await unrecorded(api, kind, teamId));
  return {
    context,
    api,
    deps,
    kind,
    teamId,
    record,
    viewer: viewerOfTurn(context),
    ownerId: context.activity.from.aadObjectId ?? '',
  };
}

/**
 * The record of a notice the bot holds none of: the team's name, the day the notice is about and
 * its policy from `GET /teams/{id}/lifecycle` as the person; when they may not read it, the team
 * id stands in for its name, as before (the answer is then refused as not theirs).
 */
async function unrecorded(api: StewardClient, kind: NoticeKind, teamId: string): Promise<NoticeRecord> {
  const lifecycle = teamId ? await api.getTeamLifecycle(teamId).catch(() => null) : null;
  const expiration = lifecycle?.policy.expiration;
  return {
    teamId,
    teamName: lifecycle?.displayName || teamId,
    about: (kind === 'renewal' ? lifecycle?.expiresOn : lifecycle?.lastActivityDateTime?.slice(0, 10)) ?? '',
    renewDays: expiration?.days ?? null,
    onExpiry: expiration?.onExpiry ?? null,
    cards: [],
    posted: [],
    declined: {},
    answer: null,
  };
}

/**
 * Runs the API call of an answer as the person; a refusal listed in `refusals` is said on the card
 * (its buttons kept, so another owner's card is not needed), anything else fails as any verb does.
 */
async function attempt<T>(
  press: Press,
  call: () => Promise<T>,
  refusals: Refusals,
): Promise<{ done: T } | { refused: Reply }> {
  try {
    return { done: await call() };
  } catch (error) {
    for (const status of [403, 404, 409] as const) {
      const key = refusals[status];
      if (key && isStatus(error, status)) {
        const team = teamNameText(press.record.teamName);
        const problem = say(press.viewer.reader, key, { team });
        return {
          refused: cardReply(
            noticeCard(press.kind, press.record, press.ownerId, press.viewer, problem),
            true,
          ),
        };
      }
    }
    throw error;
  }
}

/** Records the answer, shows it on every other owner's card, and answers with the presser's card. */
async function answered(
  press: Press,
  answer: LifecycleAnswer | null,
  change?: (latest: NoticeRecord) => Partial<NoticeRecord>,
) {
  const skip = press.context.activity.replyToId;
  const record = await press.deps.lifecycle.answer(press.kind, press.record, answer, change, skip);
  return cardReply(noticeCard(press.kind, record, press.ownerId, press.viewer), true);
}

const nameOf = (press: Press) => press.context.activity.from.name || '';

/** A press whose card names no team (a hand-made or damaged card): said plainly, nothing called. */
function noTeam(context: TurnContext): Reply {
  const reader = readerOfTurn(context);
  return {
    kind: 'text',
    text: say(reader, 'error.notFoundMessage', { subject: say(reader, 'subject.team') }),
  };
}

/** "Renew" on a renewal card: the team renewed as the person (owners, governance managers, admins). */
export async function renewTeam(
  context: TurnContext,
  api: StewardClient,
  deps: LifecycleAnswerDependencies,
  data: LifecycleNoticeData,
): Promise<Reply> {
  if (typeof data.teamId !== 'string' || data.teamId === '') return noTeam(context);
  const press = await pressOf(context, api, deps, data, 'renewal');
  const renewal = await attempt(press, () => api.renewTeamLifecycle(press.teamId), {
    ...NOT_OWNER,
    409: 'renewal.cannotRenew',
  });
  if ('refused' in renewal) return renewal.refused;
  return answered(press, { kind: 'renewed', by: nameOf(press), expiresOn: renewal.done.expiresOn });
}

/**
 * "Archive now" (renewal card) or "Archive" (inactivity card): first the card asks to confirm (a
 * press of a card drawn before confirmations existed too); "Yes, archive it" runs the existing
 * archive operation, as the person.
 */
export async function archiveTeamNow(
  context: TurnContext,
  api: StewardClient,
  deps: LifecycleAnswerDependencies,
  data: LifecycleNoticeData,
): Promise<Reply> {
  if (typeof data.teamId !== 'string' || data.teamId === '') return noTeam(context);
  const kind: NoticeKind = data.notice === 'inactivity' ? 'inactivity' : 'renewal';
  const press = await pressOf(context, api, deps, data, kind);
  if (data.confirmed !== true) {
    const asking = press.record.answer === null;
    return cardReply(noticeCard(kind, press.record, press.ownerId, press.viewer, undefined, asking), true);
  }
  const archive = () =>
    api.archiveTeam(press.teamId).then(
      () => false,
      (error: unknown) => {
        // Archived already (by another owner, the evaluator): the card says so, as every card will.
        if (isStatus(error, 409)) return true;
        throw error;
      },
    );
  const result = await attempt(press, archive, NOT_OWNER);
  if ('refused' in result) return result.refused;
  if (result.done) return answered(press, { kind: 'archived' });
  return answered(press, { kind: 'archiving', by: nameOf(press) });
}

/** "Keep it" on an inactivity card: activity recorded today, as the person. */
export async function keepTeam(
  context: TurnContext,
  api: StewardClient,
  deps: LifecycleAnswerDependencies,
  data: LifecycleNoticeData,
): Promise<Reply> {
  if (typeof data.teamId !== 'string' || data.teamId === '') return noTeam(context);
  const press = await pressOf(context, api, deps, data, 'inactivity');
  const kept = await attempt(press, () => api.recordTeamActivity(press.teamId), {
    ...NOT_OWNER,
    409: 'lifecycle.alreadyArchived',
  });
  if ('refused' in kept) return kept.refused;
  return answered(press, { kind: 'kept', by: nameOf(press), lastActivityDate: kept.done.lastActivityDate });
}

/** "I'm not the right person": recorded (audited) as the person; their card says what happens next. */
export async function notRightPerson(
  context: TurnContext,
  api: StewardClient,
  deps: LifecycleAnswerDependencies,
  data: LifecycleNoticeData,
): Promise<Reply> {
  if (typeof data.teamId !== 'string' || data.teamId === '') return noTeam(context);
  const kind: NoticeKind = data.notice === 'inactivity' ? 'inactivity' : 'renewal';
  const press = await pressOf(context, api, deps, data, kind);
  const recorded = await attempt(press, () => api.reportNotRightPerson(press.teamId, kind), NOT_OWNER);
  if ('refused' in recorded) return recorded.refused;
  return answered(press, null, (latest) => ({
    declined: { ...latest.declined, [press.ownerId]: recorded.done.otherOwnerCount },
  }));
}
