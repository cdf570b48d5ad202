import { TurnContext } from 'botbuilder';
import { type Job, JOBS_A_READ } from '../../client';
import { backoffMs } from '../../lib/backoff';
import type { AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { renderProgressCard } from './progressCard';
import { type ProgressCardData, progressCardData } from './progressCardData';
import type { Reader } from '../i18n/catalog';
import { readerOfTurn } from '../conversations/reply';
import { cardMessage } from '../messenger';
import type { ShownCard } from './requestState';
import type { JobRead } from './jobReads';
import { KeyedTurns } from '../keyedTurns';
import {
  cardData,
  isFinished,
  jobSignature,
  noteAndRedraw,
  type ProgressDependencies,
  showProgress,
} from './progressDrawing';

export type { ProgressDependencies } from './progressDrawing';

/** Jobs whose last drawn read is remembered after they ended (the oldest are forgotten first). */
const MAX_REMEMBERED_READS = 10_000;

/** A job this process follows: what its card shows, and when to look at it again if nothing is heard. */
interface Followed {
  seen: string;
  delay: number;
  dueAt: number;
}

/**
 * The progress card of each request, updated in place as its job moves. Deliveries move the cards,
 * each reading its job through `JobReads` (gathered per requester, on the requester's rate limit).
 * Polling is the fallback: one read of the bot's own for up to `JOBS_A_READ` due jobs, at least
 * `pollMs.initial` after the last answer, each job due `pollMs.initial` after its last change,
 * doubling up to `pollMs.max`. Card locations and unfinished requests live in the bot state, so
 * any bot process can update a card and a restarted one follows them again.
 */
export class ProgressTracker {
  private readonly followed = new Map<string, Followed>();
  /** The read each job's card was last brought up to date from (older reads are not drawn). */
  private readonly latest = new Map<string, number>();
  private readonly drawing = new KeyedTurns();
  /**
   * Jobs whose card is drawn at the next read taken in, moved or not: a redraw's own read may land
   * after a poll's newer one, which draws nothing for a job that did not move, and be dropped.
   */
  private readonly owed = new Set<string>();
  private poll: { timer: NodeJS.Timeout; at: number } | undefined;
  private polling: Promise<void> | undefined;
  private lastPollAt = -Infinity;
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: ProgressDependencies) {}

  /**
   * Posts the progress card of a request just accepted, in the current conversation, and follows
   * its job. A job that already has a card (a replayed submit) keeps that one.
   */
  async start(context: TurnContext, job: Job, pictureUrl: string | null): Promise<void> {
    if (await this.deps.requestState.progress(job.id)) return;
    const reader = readerOfTurn(context);
    const card = renderProgressCard(progressCardData(job, pictureUrl), reader);
    const sent = await context.sendActivity(cardMessage(card));
    await this.deps.requestState.saveProgress(job.id, {
      reference: TurnContext.getConversationReference(context.activity),
      activityId: sent?.id ?? '',
      requesterId: context.activity.from.aadObjectId ?? '',
      pictureUrl,
      reader,
    });
    if (isFinished(job)) return;
    await this.deps.requestState.markUnfinished(job.id);
    this.follow(job.id, jobSignature(job));
    // The job may have ended while its card was posted (no card for that delivery): read it now.
    this.refreshSoon(job.id);
  }

  /**
   * Another card now shows this request (Status or Refresh pressed on a card, `status <id>` typed):
   * it is updated with the request's first card from now on, and the request is followed until it
   * ends. A request the bot never showed (made elsewhere) gets this card as its first.
   */
  async watch(job: Job, posted: ShownCard, requesterId: string, reader: Reader): Promise<void> {
    if (!posted.activityId) return;
    const location = await this.deps.requestState.progress(job.id);
    if (!location) {
      await this.deps.requestState.saveProgress(job.id, { ...posted, requesterId, pictureUrl: null, reader });
    } else if (location.activityId !== posted.activityId) {
      await this.deps.requestState.saveCopy(job.id, location, posted);
    }
    if (isFinished(job)) return;
    await this.deps.requestState.markUnfinished(job.id);
    this.follow(job.id, jobSignature(job));
  }

  /** The progress card of a job as the request's own card shows it (picture, unreachable approvers). */
  async cardOf(
    job: Job,
    reader: Reader,
    extra: Pick<ProgressCardData, 'confirmWithdraw' | 'problem'> = {},
  ): Promise<AdaptiveCardAttachment> {
    const location = await this.deps.requestState.progress(job.id);
    return renderProgressCard({ ...cardData(job, location), ...extra }, reader);
  }

  /**
   * Whether the message `activityId` is one of the request's living cards (its progress card or a
   * copy); `unknown` when the bot shows the request on no card yet.
   */
  async isLivingCard(jobId: string, activityId: string): Promise<boolean | 'unknown'> {
    const location = await this.deps.requestState.progress(jobId);
    if (!location?.activityId) return 'unknown';
    return (
      location.activityId === activityId || (location.copies ?? []).some((c) => c.activityId === activityId)
    );
  }

  /** Try again posted the form: every card of the request says so and offers it no more. */
  noteRetried(job: Job): Promise<void> {
    return noteAndRedraw(this.deps, job, 'retried');
  }
  /** An owner applied the label the team was made without: every card of the request says so. */
  noteLabelApplied(job: Job): Promise<void> {
    return noteAndRedraw(this.deps, job, 'labelApplied');
  }

  /** Notes the approvers that could not be reached (by name) and shows them on the requester's card. */
  async noteUnreachable(jobId: string, names: readonly string[]): Promise<void> {
    const location = await this.deps.requestState.progress(jobId);
    if (!location) return;
    const before = location.unreachableApprovers ?? [];
    if (before.length === names.length && before.every((name, i) => name === names[i])) return;
    await this.deps.requestState.saveProgress(jobId, { ...location, unreachableApprovers: [...names] });
    // Not awaited: this runs in a delivery (an approval stage opened), which a read paced among
    // the requester's would hold.
    this.refreshSoon(jobId);
  }

  /**
   * Follows again the requests whose job had not finished when a bot process last saw it (the bot
   * restarted in between): each card is brought up to date at the first poll. Resolves with how many.
   */
  async resume(): Promise<number> {
    const jobIds = await this.deps.requestState.unfinishedJobs();
    // An empty signature differs from any job's, so the first poll redraws the card.
    for (const jobId of jobIds) this.follow(jobId, '');
    return jobIds.length;
  }

  /**
   * A delivery said the job moved: its card is updated once its requester's reads allow, not holding
   * the delivery (nor one of Steward's workers). Followed meanwhile: if that fails, a poll does it.
   */
  refreshSoon(jobId: string): void {
    if (this.stopped) return;
    this.owed.add(jobId);
    const task = (async () => {
      const location = await this.deps.requestState.progress(jobId);
      if (!location) return;
      if (!this.stopped) this.follow(jobId, '');
      await this.take(jobId, await this.deps.reads.read(jobId, location.requesterId), true);
    })()
      .catch((error: unknown) => {
        if (this.stopped) return;
        this.deps.log.warn({ err: error, jobId }, 'could not update a progress card; the next poll will');
      })
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /**
   * A job as it stands, read at once with the bot's own token as the polls read: a delivery waits for
   * it (to draw an approver's card), and a read paced among its requester's would hold a worker.
   */
  async job(jobId: string): Promise<Job | undefined> {
    return (await this.deps.reads.readNow([jobId])).get(jobId)?.job;
  }

  /** Stops polling; resolves once no poll is running. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearTimeout(this.poll.timer);
    this.poll = undefined;
    this.followed.clear();
    await Promise.allSettled([this.polling, ...this.running]);
  }

  /**
   * Takes in a read of a job: draws it on the card when it changed (always when `redraw`), unless a
   * later read was drawn already, and stops following the job once it ended or is gone.
   */
  private take(jobId: string, read: JobRead, redraw: boolean): Promise<void> {
    return this.drawing.run(jobId, async () => {
      if (read.sequence <= (this.latest.get(jobId) ?? 0)) return;
      this.latest.set(jobId, read.sequence);
      const { job } = read;
      if (!job) {
        await this.finished(jobId);
        return;
      }
      const seen = jobSignature(job);
      const followed = this.followed.get(jobId);
      const changed = followed?.seen !== seen;
      if (this.owed.delete(jobId) || redraw || changed) await showProgress(this.deps, job);
      if (isFinished(job)) {
        await this.finished(jobId);
      } else if (followed) {
        const { initial, max } = this.deps.pollMs;
        // The job is moving: look again soon; else later and later.
        followed.delay = changed ? initial : backoffMs({ baseMs: followed.delay, capMs: max }, 1);
        followed.dueAt = Date.now() + followed.delay;
        followed.seen = seen;
      } else {
        this.follow(jobId, seen);
      }
    });
  }

  private follow(jobId: string, seen: string): void {
    if (this.stopped || this.followed.has(jobId)) return;
    const delay = this.deps.pollMs.initial;
    this.followed.set(jobId, { seen, delay, dueAt: Date.now() + delay });
    this.planPoll();
  }

  /** Sets the timer of the next poll: when the first job is due, and not before the spacing allows. */
  private planPoll(): void {
    if (this.stopped || this.polling || this.followed.size === 0) return;
    let due = Infinity;
    for (const followed of this.followed.values()) due = Math.min(due, followed.dueAt);
    const at = Math.max(due, this.lastPollAt + this.deps.pollMs.initial);
    if (this.poll && this.poll.at <= at) return;
    if (this.poll) clearTimeout(this.poll.timer);
    const timer = setTimeout(
      () => {
        this.poll = undefined;
        this.polling = this.pollDue().finally(() => {
          this.polling = undefined;
          this.planPoll();
        });
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.poll = { timer, at };
  }

  /** One read of the bot's own for the jobs due (the longest due first), each then taken in. */
  private async pollDue(): Promise<void> {
    const now = Date.now();
    const due = [...this.followed]
      .filter(([, followed]) => followed.dueAt <= now)
      .sort(([, a], [, b]) => a.dueAt - b.dueAt)
      .slice(0, JOBS_A_READ)
      .map(([jobId]) => jobId);
    if (due.length === 0) return;
    let reads: Map<string, JobRead>;
    try {
      reads = await this.deps.reads.readNow(due);
    } catch (error) {
      this.lastPollAt = Date.now();
      this.deps.log.warn({ err: error, jobs: due.length }, 'could not follow requests; trying again later');
      for (const jobId of due) {
        const followed = this.followed.get(jobId);
        if (!followed) continue;
        followed.delay = backoffMs({ baseMs: followed.delay, capMs: this.deps.pollMs.max }, 1);
        followed.dueAt = Date.now() + followed.delay;
      }
      return;
    }
    // Spaced from the answer, so the next call reaches Steward `pollMs.initial` after this one did.
    this.lastPollAt = Date.now();
    for (const jobId of due) {
      if (this.stopped) return;
      if (!this.followed.has(jobId)) continue;
      await this.take(jobId, reads.get(jobId)!, false).catch((error: unknown) => {
        this.deps.log.warn({ err: error, jobId }, 'could not update a progress card; trying again later');
      });
    }
  }

  /** Stops following a job that ended (or is gone), here and for the next start. */
  private async finished(jobId: string): Promise<void> {
    this.followed.delete(jobId);
    this.owed.delete(jobId);
    // The sequence stays a while, so a read older than the final one cannot draw over it.
    if (this.latest.size > MAX_REMEMBERED_READS) {
      for (const id of this.latest.keys()) {
        if (this.latest.size <= MAX_REMEMBERED_READS / 2) break;
        if (!this.followed.has(id)) this.latest.delete(id);
      }
    }
    await this.deps.requestState.markFinished(jobId);
  }
}
