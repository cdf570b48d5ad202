import type { BotLog } from '../botLog';
import type { Messenger, PostedCard } from '../messenger';
import type { ReachState } from '../reachState';
import type { LifecycleCardState } from './lifecycleCardState';
import { viewerOf } from '../conversations/cardViewer';
import { noticeCard } from './lifecycleNotice';
import type { NoticeKind, NoticeRecord, NoticeRecords } from './lifecycleRecords';

/** What posting and redrawing the owners' cards of a notice needs. */
export interface NoticePostingDependencies {
  reachState: ReachState;
  lifecycleCardState: LifecycleCardState;
  records: NoticeRecords;
  messenger: Messenger;
  log: BotLog;
}

/** A card of a notice held for an owner the bot cannot reach yet: which notice, and which of its cards. */
export interface HeldNotice {
  kind: NoticeKind;
  teamId: string;
  /** The notice's `about` when it was held: a later notice replaces it. */
  about: string;
  /** Which card of the notice (`noticeDays` of a renewal notice, `notify` of an inactivity one). */
  key: string;
}

/** Where a held card is noted among a person's undelivered cards: `lifecycle/<kind>/<about>/<key>/<teamId>`. */
export const heldNoticeKey = (held: HeldNotice) =>
  `lifecycle/${held.kind}/${held.about}/${held.key}/${held.teamId}`;

/** The held card a noted key names; undefined for a key of another kind of card. */
export function heldNoticeOf(noted: string): HeldNotice | undefined {
  const [prefix, kind, about, key, ...team] = noted.split('/');
  if (prefix !== 'lifecycle' || (kind !== 'renewal' && kind !== 'inactivity')) return undefined;
  return { kind, about: about ?? '', key: key ?? '', teamId: team.join('/') };
}

/** What became of one owner's card. */
export type Posting = 'posted' | 'unreached' | 'not needed';

/**
 * Posts `ownerId`'s card of the team's current notice (once per `key`: a repeated delivery posts
 * nothing twice), drawn from the record as it stands, so a card posted late shows the answer given
 * meanwhile. The owner's one living card of the team decides first (`LivingCards.take`): the card
 * may refresh the one they have of the same notice, or wait for their card of another to be answered. An owner the bot cannot reach yet has the card held for them, to be posted when they
 * first talk to the bot (`LifecycleConversation.retryFor`).
 */
export async function postNoticeCard(
  deps: NoticePostingDependencies,
  kind: NoticeKind,
  teamId: string,
  ownerId: string,
  key: string,
): Promise<Posting> {
  const record = await deps.records.get(kind, teamId);
  if (!record) return 'not needed';
  const mark = `${ownerId}:${key}`;
  if (record.posted.includes(mark)) return 'not needed';
  // One living lifecycle card per owner and team: a later card of the same notice brings theirs up
  // to date; a notice of the other kind waits until the one they have is answered.
  const turn = await deps.records.living.take(kind, record, ownerId, key);
  if (turn === 'wait') return 'not needed';
  if (turn === 'refresh') {
    const saved = await deps.records.update(kind, teamId, (latest) => {
      const base = latest ?? record;
      return base.posted.includes(mark) ? undefined : { ...base, posted: [...base.posted, mark] };
    });
    const theirs = (saved ?? record).cards.filter((card) => card.ownerId === ownerId);
    await redraw(deps, kind, { ...(saved ?? record), cards: theirs });
    return 'not needed';
  }
  // Another bot process may be handling the same delivery (a retry): one of them posts.
  if (!(await deps.records.claimPost(kind, record, mark))) return 'not needed';
  const viewer = await viewerOf(deps.reachState, ownerId);
  const posted = await post(deps, ownerId, noticeCard(kind, record, ownerId, viewer), teamId);
  if (!posted) {
    await deps.records.releasePost(kind, record, mark);
    const held = heldNoticeKey({ kind, teamId, about: record.about, key });
    await deps.lifecycleCardState.noteUndeliveredCard(ownerId, held);
    return 'unreached';
  }
  // Added to the record as it is now: an owner may answer while the others are still being reached.
  const saved = await deps.records.update(kind, teamId, (latest) => {
    const base = latest ?? record;
    return { ...base, cards: [...base.cards, { ownerId, posted }], posted: [...base.posted, mark] };
  });
  // Answered while this card was on its way: show the answer on it too.
  if (saved?.answer && !record.answer) await redraw(deps, kind, { ...saved, cards: [{ ownerId, posted }] });
  return 'posted';
}

/** Draws every owner's card of the notice again (but `skip`, the activity answered in place), each in its owner's language. */
export async function redraw(
  deps: NoticePostingDependencies,
  kind: NoticeKind,
  record: NoticeRecord,
  skip?: string,
): Promise<void> {
  for (const { ownerId, posted } of record.cards) {
    if (posted.activityId === skip) continue;
    const card = noticeCard(kind, record, ownerId, await viewerOf(deps.reachState, ownerId));
    await deps.messenger.update(posted, card).catch((error: unknown) => {
      deps.log.warn({ err: error, teamId: record.teamId }, 'could not update a lifecycle card');
    });
  }
}

async function post(
  deps: NoticePostingDependencies,
  ownerId: string,
  card: Parameters<Messenger['postToPerson']>[1],
  teamId: string,
): Promise<PostedCard | undefined> {
  let failure: unknown;
  const posted = await deps.messenger.postToPerson(ownerId, card).catch((error: unknown) => {
    failure = error;
    return undefined;
  });
  if (!posted)
    deps.log.warn(
      {
        teamId,
        ownerId,
        reason: failure instanceof Error ? failure.message.split('\n', 1)[0] : 'not reachable yet',
      },
      'could not deliver a lifecycle card to an owner; it is held until they talk to the bot',
    );
  return posted;
}
