import { backoffMs } from '../../lib/backoff';
import type { PacingListener } from '../../platform/pacing';

/**
 * Jobs a process holds per slot at most, counting those waiting for a budget turn. A turn is at
 * most the budget's `maxWaitMs` (or one bucket interval) away, so a held job soon works again.
 */
const HELD_PER_SLOT = 8;

/** The longest poll interval, in `pollMs`. */
const POLL_BACKOFF = 4;

/** How far ahead, in polls, a claim looks for a budget bucket's free turns (`JobLeases.claim`). */
export const CLAIM_HORIZON_POLLS = 4;

/**
 * How far ahead, in polls, a claim takes parked and delayed jobs that are not due yet; the worker
 * runs each at its time. Parked jobs come due a few a second while Graph works on many teams, and
 * one claim takes up those of the next second instead of a statement each.
 */
export const CLAIM_LOOKAHEAD_POLLS = 2;

/**
 * The least time between two claims sent because something may have come due (the poll, a park's
 * time, a bucketed job's end), in polls: each asked for a claim at once, some 18 claims a second
 * while Graph works on many teams, each a statement, a quarter finding nothing. The lookahead (two
 * polls) is longer, so a parked job is seldom taken up late for it. A slot freed while due jobs
 * were left behind is still filled at once (`freed`).
 */
export const CLAIM_GAP_POLLS = 1;

/**
 * A worker's slots: how many jobs it may claim now, and when claiming again is worth a statement.
 * A slot is for work: a job waiting for its turn in the platform's rate budget lends its slot out
 * (`lender`), and the worker claims another due job meanwhile.
 */
export class WorkerSlots {
  /** Jobs in hand waiting for their turn in the platform's rate budget: they hold no slot. */
  private pacing = 0;
  /**
   * The last claim found fewer due jobs than it could take: a slot freed or lent out does not
   * send another claim (a statement for nothing) until something may have become due: a park's
   * time, the poll, a job queued in this process (`due`).
   */
  private drained = false;
  /** Empty claims in a row, which space the polls out (`pollDelay`). */
  private emptyClaims = 0;

  constructor(
    private readonly concurrency: number,
    /** Looks for jobs now. */
    private readonly claimNow: () => void,
    /** Looks for jobs once the last claim is `CLAIM_GAP_POLLS` old. */
    private readonly claimSoon: () => void = claimNow,
  ) {}

  /** Jobs in hand waiting for a budget turn now. */
  get pacingCount(): number {
    return this.pacing;
  }

  /**
   * How many jobs the worker may claim with `held` jobs in hand. How many the process holds at all
   * stays bounded (each costs a timer and a lease's renewals). When that bound is what keeps the
   * worker from claiming, the jobs in hand are waiting for budget turns, enough to keep the budget
   * spent: the worker then claims once there is room for a slot's worth of jobs, in one statement,
   * rather than one claim for each job that leaves.
   */
  free(held: number): number {
    const bySlots = this.concurrency - (held - this.pacing);
    const byBound = this.concurrency * HELD_PER_SLOT - held;
    if (byBound < bySlots && byBound < this.concurrency) return 0;
    return Math.min(bySlots, byBound);
  }

  /** A claim asked for `asked` jobs and got `got`. */
  claimed(asked: number, got: number): void {
    this.drained = got < asked;
    this.emptyClaims = got === 0 ? this.emptyClaims + 1 : 0;
  }

  /**
   * How long until the next poll: `pollMs` while claims find work, doubling while they find none,
   * up to `POLL_BACKOFF` times it. A poll is a statement on the shared database whether or not it
   * finds a job, and a worker's own parked jobs wake it by timer, not by poll; the polls are for
   * what other processes queue or leave (a request, a lease run out).
   */
  pollDelay(pollMs: number): number {
    return backoffMs({ baseMs: pollMs, capMs: POLL_BACKOFF * pollMs }, this.emptyClaims - 1);
  }

  /** Something may have become due (a park's time, the poll, a job queued here): claim again. */
  due(): void {
    this.drained = false;
  }

  /** A slot came free (a job ended or parked): worth a claim only if the last one left jobs behind. */
  freed(): void {
    if (!this.drained) this.claimNow();
  }

  /**
   * Lends a job's slot out while it waits for its turn in the platform's budget: another due job is
   * claimed meanwhile. The job carries on when its turn comes even if every slot is taken by then;
   * its call is due, and holding it back for a slot would waste the turn it reserved. A job waits
   * for a turn before most of its calls, so the slots lent out are claimed for at most once a
   * `CLAIM_GAP_POLLS`, several in one statement: claimed at once, each wait cost a claim of its own.
   */
  readonly lender: PacingListener = {
    waiting: () => {
      this.pacing += 1;
      if (!this.drained) this.claimSoon();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        this.pacing -= 1;
      };
    },
  };
}
