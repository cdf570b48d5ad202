import type { StewardClient } from '../../client';
import type { BotLog } from '../botLog';
import type { BotState, PostedCard } from '../botState';
import type { LifecycleAnswer } from '../cards';
import { dayFor, say } from '../i18n/catalog';
import type { BotIdentity } from '../identity/botIdentity';
import { KeyedTurns } from '../keyedTurns';
import type { Messenger } from '../messenger';
import { readerOfApprover } from './approverReader';
import { type LifecycleNotice, newRecord, noticeCard, noticeOf, teamEventOf } from './lifecycleNotice';
import { type NoticeKind, type NoticeRecord, NoticeRecords } from './lifecycleRecords';

type Json = Record<string, unknown>;

/** What the lifecycle conversation needs. */
export interface LifecycleDependencies {
  client: StewardClient;
  identity: BotIdentity;
  state: BotState;
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

  /** `team_archived`: every renewal and inactivity card of the team says it is archived. */
  async showArchived(payload: Json): Promise<void> {
    const { teamId } = teamEventOf(payload);
    if (!teamId) return;
    await this.turns.run(teamId, async () => {
      for (const kind of ['renewal', 'inactivity'] as const) {
        const record = await this.deps.records.get(kind, teamId);
        if (record && record.answer?.kind !== 'archived')
          await this.answerNow(kind, record, { kind: 'archived' });
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
    // Re-read: cards posted since `record` was read must stay in it.
    const latest = (await this.deps.records.get(kind, record.teamId)) ?? record;
    // Archived is where a team ends: a late "archiving" (its job finished first) does not undo it.
    const final = latest.answer?.kind === 'archived' ? latest.answer : (answer ?? latest.answer);
    const saved: NoticeRecord = { ...latest, ...change(latest), answer: final };
    await this.deps.records.save(kind, saved);
    if (answer) await this.redraw(kind, saved, skip);
    return saved;
  }

  /** Draws every owner's card of the notice again, in each owner's language. */
  private async redraw(kind: NoticeKind, record: NoticeRecord, skip?: string): Promise<void> {
    for (const { ownerId, posted } of record.cards) {
      if (posted.activityId === skip) continue;
      const card = noticeCard(kind, record, ownerId, await readerOfApprover(this.deps.state, ownerId));
      await this.deps.messenger.update(posted, card).catch((error: unknown) => {
        this.deps.log.warn({ err: error, teamId: record.teamId }, 'could not update a lifecycle card');
      });
    }
  }

  private async postCards(
    kind: NoticeKind,
    first: NoticeRecord,
    notice: LifecycleNotice,
    key: string,
  ): Promise<void> {
    if (first.answer) return;
    // The record exists before the first card is posted, and each card is added to the current
    // record at once: an owner may answer while the others are still being reached.
    await this.deps.records.save(kind, first);
    for (const ownerId of notice.ownerIds) {
      const mark = `${ownerId}:${key}`;
      if (first.posted.includes(mark)) continue;
      // Another bot process may be handling the same delivery (a retry): one of them posts.
      if (!(await this.deps.records.claimPost(kind, first, mark))) continue;
      const reader = await readerOfApprover(this.deps.state, ownerId);
      const posted = await this.post(ownerId, noticeCard(kind, first, ownerId, reader), notice.teamId);
      if (!posted) {
        await this.deps.records.releasePost(kind, first, mark);
        continue;
      }
      const current = (await this.deps.records.get(kind, notice.teamId)) ?? first;
      const record: NoticeRecord = {
        ...current,
        cards: [...current.cards, { ownerId, posted }],
        posted: [...current.posted, `${ownerId}:${key}`],
      };
      await this.deps.records.save(kind, record);
      // Answered while this card was on its way: show the answer on it too.
      if (record.answer) await this.redraw(kind, { ...record, cards: [{ ownerId, posted }] });
    }
  }

  private async tellArchived(first: NoticeRecord, notice: LifecycleNotice): Promise<void> {
    let record = first;
    for (const ownerId of notice.ownerIds) {
      if (record.posted.includes(`${ownerId}:archived`)) continue;
      const known = await this.deps.state.user(ownerId);
      if (!known) {
        this.deps.log.info(
          { teamId: notice.teamId, ownerId },
          'an owner of an archived team has no chat with the bot',
        );
        continue;
      }
      const reader = known.reader ?? (await readerOfApprover(this.deps.state, ownerId));
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
      record = (await this.deps.records.get('inactivity', notice.teamId)) ?? record;
      record = { ...record, posted: [...record.posted, `${ownerId}:archived`] };
      await this.deps.records.save('inactivity', record);
    }
  }

  private async post(ownerId: string, card: Parameters<Messenger['postToPerson']>[1], teamId: string) {
    let failure: unknown;
    const posted: PostedCard | undefined = await this.deps.messenger
      .postToPerson(ownerId, card)
      .catch((error: unknown) => {
        failure = error;
        return undefined;
      });
    if (!posted)
      this.deps.log.warn(
        {
          teamId,
          ownerId,
          reason: failure instanceof Error ? failure.message.split('\n', 1)[0] : 'not reachable yet',
        },
        'could not deliver a lifecycle card to an owner',
      );
    return posted;
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
