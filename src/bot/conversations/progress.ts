import { TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import {
  type AdaptiveCardAttachment,
  type ProgressCardData,
  progressCardData,
  renderProgressCard,
  renderRequestEndedCard,
} from '../cards';
import type { BotState, PostedCard, ProgressLocation } from '../botState';
import type { BotIdentity } from '../identity/botIdentity';
import type { BotLog } from '../botLog';
import { DEFAULT_READER, type Reader } from '../i18n/catalog';
import { readerOfTurn } from './reply';
import { cardMessage, type Messenger } from '../messenger';

/** What following requests needs. */
export interface ProgressDependencies {
  client: StewardClient;
  identity: BotIdentity;
  state: BotState;
  messenger: Messenger;
  /** Polling of a job with no news: first wait and longest wait, ms. */
  pollMs: { initial: number; max: number };
  log: BotLog;
}

/** Copies of a progress card kept up to date besides the first (the newest ones). */
const MAX_COPIES = 10;

interface Poll {
  timer: NodeJS.Timeout;
  delay: number;
  seen: string;
}

/** What changes on the card when a job moves. */
function jobSignature(job: Job): string {
  const approval = (job.data as { approval?: { status?: unknown } }).approval?.status ?? '';
  return `${job.status}|${job.progress}|${job.log.length}|${String(approval)}`;
}

/** What the request's cards show of `job`, with what the bot knows of the request (`location`). */
function cardData(job: Job, location: ProgressLocation | undefined): ProgressCardData {
  return {
    ...progressCardData(job, location?.pictureUrl ?? null, location?.unreachableApprovers ?? []),
    ...(location?.retried ? { retried: true } : {}),
  };
}

/** Whether a job will not move any more. */
export function isFinished(job: Job): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

/**
 * The progress card of each request, updated in place as its job moves: at once when a webhook
 * delivery says so, and by polling `GET /jobs/{id}` with backoff (from `pollMs.initial`, doubling
 * while nothing changes, up to `pollMs.max`) when no delivery arrives. Card locations live in the
 * bot state, so any bot process can update a card; polls live in the process that started them,
 * and the unfinished requests are noted there too, so that a restarted process follows them again.
 */
export class ProgressTracker {
  private readonly polls = new Map<string, Poll>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: ProgressDependencies) {}

  /**
   * Posts the progress card of a request just accepted, in the current conversation, and follows
   * its job. A job that already has a card (a replayed submit) keeps that one.
   */
  async start(context: TurnContext, job: Job, pictureUrl: string | null): Promise<void> {
    if (await this.deps.state.progress(job.id)) return;
    const reader = readerOfTurn(context);
    const card = renderProgressCard(progressCardData(job, pictureUrl), reader);
    const sent = await context.sendActivity(cardMessage(card));
    await this.deps.state.saveProgress(job.id, {
      reference: TurnContext.getConversationReference(context.activity),
      activityId: sent?.id ?? '',
      requesterId: context.activity.from.aadObjectId ?? '',
      pictureUrl,
      reader,
    });
    if (isFinished(job)) return;
    await this.deps.state.markUnfinished(job.id);
    this.follow(job.id, jobSignature(job));
  }

  /**
   * Another card now shows this request (Status or Refresh pressed on a card, `status <id>` typed):
   * it is updated with the request's first card from now on, and the request is followed until it
   * ends. A request the bot never showed (made elsewhere) gets this card as its first.
   */
  async watch(job: Job, posted: PostedCard, requesterId: string, reader: Reader): Promise<void> {
    if (!posted.activityId) return;
    const location = await this.deps.state.progress(job.id);
    if (!location) {
      await this.deps.state.saveProgress(job.id, { ...posted, requesterId, pictureUrl: null, reader });
    } else if (location.activityId !== posted.activityId) {
      const copies = (location.copies ?? []).filter((copy) => copy.activityId !== posted.activityId);
      // The newest cards are kept: an old copy scrolled far out of sight matters least.
      const kept = [...copies, posted].slice(-MAX_COPIES);
      await this.deps.state.saveProgress(job.id, { ...location, copies: kept });
    }
    if (isFinished(job)) return;
    await this.deps.state.markUnfinished(job.id);
    this.follow(job.id, jobSignature(job));
  }

  /** The progress card of a job as the request's own card shows it (picture, unreachable approvers). */
  async cardOf(
    job: Job,
    reader: Reader,
    extra: Pick<ProgressCardData, 'confirmWithdraw' | 'problem'> = {},
  ): Promise<AdaptiveCardAttachment> {
    const location = await this.deps.state.progress(job.id);
    return renderProgressCard({ ...cardData(job, location), ...extra }, reader);
  }

  /**
   * Whether the message `activityId` is one of the request's living cards (its progress card or a
   * copy); `unknown` when the bot shows the request on no card yet.
   */
  async isLivingCard(jobId: string, activityId: string): Promise<boolean | 'unknown'> {
    const location = await this.deps.state.progress(jobId);
    if (!location?.activityId) return 'unknown';
    return (
      location.activityId === activityId || (location.copies ?? []).some((c) => c.activityId === activityId)
    );
  }

  /** Try again posted the form: every card of the request says so and offers it no more. */
  async noteRetried(job: Job): Promise<void> {
    const location = await this.deps.state.progress(job.id);
    if (!location || location.retried) return;
    const retried = { ...location, retried: true };
    await this.deps.state.saveProgress(job.id, retried);
    await this.draw(job, retried);
  }

  /** Notes the approvers that could not be reached (by name) and shows them on the requester's card. */
  async noteUnreachable(jobId: string, names: readonly string[]): Promise<void> {
    const location = await this.deps.state.progress(jobId);
    if (!location) return;
    const before = location.unreachableApprovers ?? [];
    if (before.length === names.length && before.every((name, i) => name === names[i])) return;
    await this.deps.state.saveProgress(jobId, { ...location, unreachableApprovers: [...names] });
    await this.refresh(jobId);
  }

  /**
   * Follows again the requests whose job had not finished when a bot process last saw it (the bot
   * restarted in between): each card is brought up to date at the first poll. Resolves with how many.
   */
  async resume(): Promise<number> {
    const jobIds = await this.deps.state.unfinishedJobs();
    // An empty signature differs from any job's, so the first poll redraws the card.
    for (const jobId of jobIds) this.follow(jobId, '');
    return jobIds.length;
  }

  /** Brings a job's card up to date now (a delivery said it moved) and keeps following it until it ends. */
  async refresh(jobId: string): Promise<void> {
    const location = await this.deps.state.progress(jobId);
    if (!location) return;
    const job = await this.deps.client.getJob(jobId, { token: () => this.deps.identity.appToken() });
    await this.show(job);
    const poll = this.polls.get(jobId);
    if (isFinished(job)) await this.finished(jobId);
    else if (poll) poll.seen = jobSignature(job);
    else this.follow(jobId, jobSignature(job));
  }

  /** Stops polling; resolves once no poll is running. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const jobId of [...this.polls.keys()]) this.forget(jobId);
    await Promise.allSettled([...this.running]);
  }

  /**
   * Shows the job on every card of the request; when it has ended, also posts the one short message
   * that tells the requester (an update in place makes no notification).
   */
  private async show(job: Job): Promise<void> {
    const location = await this.deps.state.progress(job.id);
    if (!location?.activityId) return;
    const data = await this.draw(job, location);
    if (isFinished(job) && (await this.deps.state.claimEndNotice(job.id))) {
      const reader = location.reader ?? DEFAULT_READER;
      await this.deps.messenger.post(location.reference, renderRequestEndedCard(data, reader));
    }
  }

  /** Draws the job on the request's card and its copies. */
  private async draw(job: Job, location: ProgressLocation): Promise<ProgressCardData> {
    const data = cardData(job, location);
    const card = renderProgressCard(data, location.reader ?? DEFAULT_READER);
    await this.deps.messenger.update(location, card);
    for (const copy of location.copies ?? []) {
      await this.deps.messenger.update(copy, card).catch((error: unknown) => {
        this.deps.log.warn({ err: error, jobId: job.id }, 'could not update a copy of a progress card');
      });
    }
    return data;
  }

  private follow(jobId: string, seen: string): void {
    if (this.stopped || this.polls.has(jobId)) return;
    const delay = this.deps.pollMs.initial;
    this.polls.set(jobId, { timer: this.schedule(jobId, delay), delay, seen });
  }

  private schedule(jobId: string, delay: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const tick = this.poll(jobId).finally(() => this.running.delete(tick));
      this.running.add(tick);
    }, delay);
    timer.unref();
    return timer;
  }

  private async poll(jobId: string): Promise<void> {
    const poll = this.polls.get(jobId);
    if (!poll || this.stopped) return;
    let delay = Math.min(poll.delay * 2, this.deps.pollMs.max);
    try {
      const job = await this.deps.client.getJob(jobId, { token: () => this.deps.identity.appToken() });
      const seen = jobSignature(job);
      if (seen !== poll.seen) {
        await this.show(job);
        poll.seen = seen;
        // The job is moving: look again soon.
        delay = this.deps.pollMs.initial;
      }
      if (isFinished(job)) {
        await this.finished(jobId);
        return;
      }
    } catch (error) {
      if (isStatus(error, 404)) {
        await this.finished(jobId);
        return;
      }
      this.deps.log.warn({ err: error, jobId }, 'could not follow a request; trying again later');
    }
    if (this.polls.get(jobId) !== poll || this.stopped) return;
    poll.delay = delay;
    poll.timer = this.schedule(jobId, delay);
  }

  /** Stops following a job that ended (or is gone), here and for the next start. */
  private async finished(jobId: string): Promise<void> {
    this.forget(jobId);
    await this.deps.state.markFinished(jobId);
  }

  private forget(jobId: string): void {
    const poll = this.polls.get(jobId);
    if (poll) clearTimeout(poll.timer);
    this.polls.delete(jobId);
  }
}
