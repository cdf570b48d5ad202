import { backoffMs } from '../../lib/backoff';
import type { BotLog } from '../botLog';
import type { ApprovalState } from './approvalState';

/** How approval cards that could not be delivered are tried again. */
export interface DeliveryRetryTiming {
  /** First wait after a failure, ms; it doubles after each failed attempt. */
  initialMs: number;
  /** Longest wait between attempts, ms. */
  maxMs: number;
  /** The bot stops trying this long after the first failure, ms. */
  giveUpAfterMs: number;
}

/** One day of attempts, then the requester's card keeps naming who could not be reached. */
export const DEFAULT_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/** Tries to deliver the approval cards of an approval request again; resolves to the approvers still unreached. */
export type Redeliver = (approvalId: string, jobId: string) => Promise<string[]>;

/**
 * Approval cards that could not reach their approver (no chat with the bot yet, the app not
 * installed for them): each is noted in the bot state (`deliveries/<approverId>/<approvalId>`),
 * logged once at warn, and tried again with backoff until it arrives, the request is decided, or
 * `giveUpAfterMs` has passed. The notes outlive a restart: `resume()` takes them up again, and a
 * person who starts talking to the bot gets theirs at once (`retryFor`).
 */
export class ApproverDeliveries {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Attempts in a row that broke off with an error, per approval (see `attemptFailed`). */
  private readonly errors = new Map<string, number>();
  private redeliver: Redeliver | undefined;
  private stopped = false;

  constructor(
    private readonly deps: { approvalState: ApprovalState; log: BotLog; timing: DeliveryRetryTiming },
  ) {}

  /** What an attempt runs (the approval conversation's announce), set once both exist. */
  use(redeliver: Redeliver): void {
    this.redeliver = redeliver;
  }

  /**
   * Notes that the card of `approvalId` did not reach `approver`: the first failure is logged (at
   * warn, without a stack: it is an expected condition), later ones are counted. Resolves to false
   * once the bot has given up on this card.
   */
  async failed(
    approver: { id: string; name: string },
    approvalId: string,
    jobId: string,
    reason: unknown,
  ): Promise<boolean> {
    const { approvalState, log, timing } = this.deps;
    const now = Date.now();
    const pending = await approvalState.pendingDelivery(approver.id, approvalId);
    if (pending && now - Date.parse(pending.since) >= timing.giveUpAfterMs) {
      log.warn(
        { approvalId, approverId: approver.id, attempts: pending.attempts },
        'gave up delivering an approval card; the requester’s card names the approver',
      );
      await approvalState.deletePendingDelivery(approver.id, approvalId);
      return false;
    }
    if (!pending) {
      log.warn(
        { approvalId, approverId: approver.id, reason: reasonOf(reason), retryInMs: timing.initialMs },
        'could not deliver an approval card; trying again with backoff',
      );
    }
    const attempts = (pending?.attempts ?? 0) + 1;
    const delay = backoffMs({ baseMs: timing.initialMs, capMs: timing.maxMs }, attempts - 1);
    await approvalState.savePendingDelivery(approver.id, approvalId, {
      jobId,
      approverName: approver.name,
      since: pending?.since ?? new Date(now).toISOString(),
      attempts,
      nextAt: new Date(now + delay).toISOString(),
    });
    this.schedule(approvalId, jobId, delay);
    return true;
  }

  /** Notes that the card of `approvalId` reached `approverId` (or is no longer needed). */
  async delivered(approverId: string, approvalId: string): Promise<void> {
    await this.deps.approvalState.deletePendingDelivery(approverId, approvalId);
  }

  /** Takes up the deliveries noted by an earlier run; resolves to how many. */
  async resume(): Promise<number> {
    const pending = await this.deps.approvalState.pendingDeliveries();
    for (const [approverId, approvalId] of pending) {
      const note = await this.deps.approvalState.pendingDelivery(approverId, approvalId);
      if (note) this.schedule(approvalId, note.jobId, Math.max(0, Date.parse(note.nextAt) - Date.now()));
    }
    return pending.length;
  }

  /** Someone just talked to the bot: their undelivered cards are tried now. */
  async retryFor(approverId: string): Promise<void> {
    for (const [, approvalId] of await this.deps.approvalState.pendingDeliveries(approverId)) {
      const note = await this.deps.approvalState.pendingDelivery(approverId, approvalId);
      if (note) this.schedule(approvalId, note.jobId, 0);
    }
  }

  /** Stops the timers (the notes stay for the next start). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.errors.clear();
  }

  private schedule(approvalId: string, jobId: string, delay: number): void {
    if (this.stopped) return;
    const earlier = this.timers.get(approvalId);
    if (earlier) clearTimeout(earlier);
    const timer = setTimeout(() => {
      this.timers.delete(approvalId);
      this.redeliver?.(approvalId, jobId).then(
        () => this.errors.delete(approvalId),
        (error: unknown) => this.attemptFailed(approvalId, jobId, error),
      );
    }, delay);
    timer.unref();
    this.timers.set(approvalId, timer);
  }

  /**
   * An attempt that broke off (the API or the store did not answer) rather than being refused by
   * the approver's side. When it got as far as `failed`, the next attempt is planned already and
   * stays as planned; otherwise it is tried again on the same backoff, counted from this process's
   * consecutive broken attempts, so a store or API that is back soon costs seconds, not `maxMs`.
   */
  private attemptFailed(approvalId: string, jobId: string, error: unknown): void {
    if (this.stopped) return;
    const errors = (this.errors.get(approvalId) ?? 0) + 1;
    this.errors.set(approvalId, errors);
    const planned = this.timers.has(approvalId);
    const { initialMs, maxMs } = this.deps.timing;
    const retryInMs = planned ? undefined : backoffMs({ baseMs: initialMs, capMs: maxMs }, errors - 1);
    this.deps.log.warn(
      { err: error, approvalId, retryInMs },
      'could not retry approval cards; trying again later',
    );
    if (retryInMs !== undefined) this.schedule(approvalId, jobId, retryInMs);
  }
}

/** A failure as one line for the log: its message, never a stack. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n', 1)[0]!.slice(0, 300) : 'not reachable yet';
}
