import type { StewardClient } from '../../client';
import type { BotLog } from '../botLog';
import type { LifecycleAnswer } from './lifecycleOutcome';
import { dayFor, say } from '../i18n/catalog';
import type { BotIdentity } from '../shared/botIdentity';
import { KeyedTurns } from '../keyedTurns';
import type { Messenger } from '../messenger';
import type { ReachState } from '../reachState';
import type { LifecycleCardState } from './lifecycleCardState';
import { readerOfApprover } from '../shared/approverReader';
import { type LifecycleNotice, newRecord, noticeOf, teamEventOf } from './lifecycleNotice';
import { heldNoticeOf, postNoticeCard, redraw } from './lifecyclePosting';
import { type NoticeKind, type NoticeRecord, NoticeRecords } from './lifecycleRecords';

type Json = Record<string, unknown>;

/** What the lifecycle conversation needs. */
export interface LifecycleDependencies {
  client: StewardClient;
  identity: BotIdentity;
  reachState: ReachState;
  lifecycleCardState: LifecycleCardState;
  records: NoticeRecords;
  messenger: Messenger;
  log: BotLog;
}

/**
 * Lifecycle notices in Teams: a renewal card to every owner before the team expires, an inactivity
 * card (or, when the policy archived the team, a plain message) when nobody has worked in it; every
 * owner's card updated in place once one of them answers, or when the team is renewed or archived
 * elsewhere (the API, another card, the evaluator). The answers themselves: `lifecycleAnswers.ts`.
 */
export class LifecycleConversation {
  /** One change at a time to a team's records in this process (other processes: `claimPost`). */
  private readonly turns = new KeyedTurns();

  constructor(private readonly deps: LifecycleDependencies) {}

  /** `team_expiring`: the renewal card to each owner who has not got this notice yet. */
  async announceRenewal(payload: Json): Promise<void> {
    const notice = noticeOf(payload);
    if (!notice?.expiresOn) return;
    await this.turns.run(notice.teamId, () => this.renewalNotice(notice));
  }

  private async renewalNotice(notice: LifecycleNotice & { expiresOn: string }): Promise<void> {
    let record = await this.deps.records.get('renewal', notice.teamId);
    if (!record || record.about !== notice.expiresOn)
      record = newRecord(notice, notice.expiresOn, await this.policyOf(notice.teamId));
    await this.postCards('renewal', record, notice, String(notice.noticeDays ?? ''));
  }

  /**
   * `team_inactive`: with `notify`, the inactivity card to each owner; with `archive`, the policy
   * archived the team and each owner is told so, once.
   */
  async announceInactivity(payload: Json): Promise<void> {
    const notice = noticeOf(payload);
    if (!notice?.lastActivityDate) return;
    await this.turns.run(notice.teamId, () => this.inactivityNotice(notice));
  }

  private async inactivityNotice(notice: LifecycleNotice & { lastActivityDate: string }): Promise<void> {
    let record = await this.deps.records.get('inactivity', notice.teamId);
    if (!record || record.about !== notice.lastActivityDate)
      record = newRecord(notice, notice.lastActivityDate);
    if (notice.outcome === 'archive') await this.tellArchived(record, notice);
    else await this.postCards('inactivity', record, notice, 'notify');
  }

  /** `team_renewed` (from a card, the API, anywhere): every renewal card says who renewed it, and until when. */
  async showRenewed(payload: Json): Promise<void> {
    const { teamId, by, expiresOn } = teamEventOf(payload);
    if (!teamId || !expiresOn) return;
    await this.turns.run(teamId, async () => {
      const record = await this.deps.records.get('renewal', teamId);
      if (!record) return;
      if (record.answer?.kind === 'renewed' && record.answer.expiresOn === expiresOn) return;
      await this.answerNow('renewal', record, { kind: 'renewed', by, expiresOn });
    });
  }

  /**
   * `team_kept_active` (from a card, the API, anywhere): every inactivity card of the notice says who
   * kept the team. A keep after a later notice does not answer that notice's cards: it is about
   * another quiet spell.
   */
  async showKept(payload: Json): Promise<void> {
    const { teamId, by, lastActivityDate } = teamEventOf(payload);
    if (!teamId || !lastActivityDate) return;
    await this.turns.run(teamId, async () => {
      const record = await this.deps.records.get('inactivity', teamId);
      if (!record || record.answer?.kind === 'archived' || record.about > lastActivityDate) return;
      if (record.answer?.kind === 'kept' && record.answer.lastActivityDate === lastActivityDate) return;
      await this.answerNow('inactivity', record, { kind: 'kept', by, lastActivityDate });
    });
  }

  /** `team_archived`: every renewal and inactivity card of the team says it is archived. */
  async showArchived(payload: Json): Promise<void> {
    const { teamId, by } = teamEventOf(payload);
    if (!teamId) return;
    const at = new Date().toISOString();
    await this.turns.run(teamId, async () => {
      for (const kind of ['renewal', 'inactivity'] as const) {
        const record = await this.deps.records.get(kind, teamId);
        // Who asked: the event's requester, else the owner whose press started the archive.
        const asked = record?.answer?.kind === 'archiving' ? record.answer.by : '';
        if (record && record.answer?.kind !== 'archived')
          await this.answerNow(kind, record, { kind: 'archived', by: by || asked, at });
      }
    });
  }

  /**
   * Records `answer` and shows it on every owner's card of the notice, but the card `skip` (the one
   * answered in place). Resolves to the record as saved.
   */
  answer(
    kind: NoticeKind,
    record: NoticeRecord,
    answer: LifecycleAnswer | null,
    /** Other changes, made to the record as it is now (another owner may have changed it meanwhile). */
    change: (latest: NoticeRecord) => Partial<NoticeRecord> = () => ({}),
    skip?: string,
  ): Promise<NoticeRecord> {
    return this.turns.run(record.teamId, () => this.answerNow(kind, record, answer, change, skip));
  }

  private async answerNow(
    kind: NoticeKind,
    record: NoticeRecord,
    answer: LifecycleAnswer | null,
    change: (latest: NoticeRecord) => Partial<NoticeRecord> = () => ({}),
    skip?: string,
  ): Promise<NoticeRecord> {
    // Changed as stored now: cards posted since `record` was read must stay in it.
    const saved = (await this.deps.records.update(kind, record.teamId, (stored) => {
      const latest = stored ?? record;
      // Archived is where a team ends: a late "archiving" (its job finished first) does not undo it.
      const final = latest.answer?.kind === 'archived' ? latest.answer : (answer ?? latest.answer);
      return { ...latest, ...change(latest), answer: final };
    }))!;
    if (answer) await redraw(this.deps, kind, saved, skip);
    if (answer && saved.answer?.kind !== 'archiving') await this.postWaiting(kind, saved);
    return saved;
  }

  /** `record`'s notice is answered: each of its owners gets the card of a notice that waited for it. */
  private async postWaiting(kind: NoticeKind, record: NoticeRecord): Promise<void> {
    const owners = new Set([
      ...record.cards.map((card) => card.ownerId),
      ...record.posted.map((mark) => mark.slice(0, mark.lastIndexOf(':'))),
    ]);
    for (const ownerId of owners) {
      const next = await this.deps.records.living.next(kind, record, ownerId);
      if (next) await postNoticeCard(this.deps, next.kind, record.teamId, ownerId, next.key);
    }
  }

  private async postCards(
    kind: NoticeKind,
    first: NoticeRecord,
    notice: LifecycleNotice,
    key: string,
  ): Promise<void> {
    // The record exists before the first card is posted (a notice about another day replaces it).
    const record = await this.deps.records.update(kind, first.teamId, (latest) =>
      latest?.about === first.about ? undefined : first,
    );
    if (!record || record.answer) return;
    let unreached = 0;
    for (const ownerId of notice.ownerIds)
      if ((await postNoticeCard(this.deps, kind, notice.teamId, ownerId, key)) === 'unreached') unreached++;
    if (unreached > 0)
      this.deps.log.warn(
        { teamId: notice.teamId, unreached },
        'some owners were not reached about a lifecycle notice',
      );
  }

  /**
   * `personId` was just reached (they talked to the bot): their renewal and inactivity cards that
   * could not reach them are posted now, as the notices stand (an answered one shows its answer);
   * a card of a notice since replaced by a later one is dropped.
   */
  async retryFor(personId: string): Promise<void> {
    const { lifecycleCardState } = this.deps;
    for (const noted of await lifecycleCardState.undeliveredCards(personId)) {
      const held = heldNoticeOf(noted);
      if (!held) continue;
      const posting = await this.turns.run(held.teamId, async () => {
        const record = await this.deps.records.get(held.kind, held.teamId);
        if (record?.about !== held.about) return 'not needed';
        return postNoticeCard(this.deps, held.kind, held.teamId, personId, held.key);
      });
      if (posting !== 'unreached') await lifecycleCardState.forgetUndeliveredCard(personId, noted);
    }
  }

  private async tellArchived(first: NoticeRecord, notice: LifecycleNotice): Promise<void> {
    const stored = await this.deps.records.update('inactivity', first.teamId, (latest) =>
      latest?.about === first.about ? undefined : first,
    );
    for (const ownerId of notice.ownerIds) {
      if (stored?.posted.includes(`${ownerId}:archived`)) continue;
      const known = await this.deps.reachState.user(ownerId);
      if (!known) {
        this.deps.log.info(
          { teamId: notice.teamId, ownerId },
          'an owner of an archived team has no chat with the bot',
        );
        continue;
      }
      const reader = known.reader ?? (await readerOfApprover(this.deps.reachState, ownerId));
      const message = say(reader, 'inactivity.archivedMessage', {
        team: notice.teamName,
        date: dayFor(reader, notice.lastActivityDate),
      });
      const sent = await this.deps.messenger.say(known.reference, message).then(
        () => true,
        (error: unknown) => {
          this.deps.log.warn(
            { err: error, teamId: notice.teamId },
            'could not tell an owner their team is archived',
          );
          return false;
        },
      );
      if (!sent) continue;
      await this.deps.records.update('inactivity', notice.teamId, (latest) => {
        const base = latest ?? first;
        return { ...base, posted: [...base.posted, `${ownerId}:archived`] };
      });
    }
  }

  /** The team's renewal period and what its expiry does, read with the bot's app identity. */
  private async policyOf(teamId: string): Promise<Partial<NoticeRecord>> {
    try {
      const app = { token: () => this.deps.identity.appToken() };
      const { policy } = await this.deps.client.getTeamLifecycle(teamId, app);
      return { renewDays: policy.expiration.days, onExpiry: policy.expiration.onExpiry };
    } catch (error) {
      // The card still goes out; it just does not say what expiry does.
      this.deps.log.warn({ err: error, teamId }, 'could not read the lifecycle policy of a team');
      return {};
    }
  }
}
