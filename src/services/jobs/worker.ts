import type { Kysely } from 'kysely';
import { JobCannotRun } from '../../domain/errors';
import type { JobType, StoredJob } from '../../domain/jobs';
import { sleep } from '../../lib/sleep';
import type { JobRepository } from '../../store/jobs/jobs';
import { withPacing } from '../../platform/pacing';
import type { Database } from '../../store/schema';
import { ActiveRun, JobParked } from './jobRun';
import { completeJob, failOrRetry, type OutcomeContext } from './jobOutcomes';
import { LeaseKeeper } from './leaseKeeper';
import { lifecycleRecord } from './jobRecords';
import type { JobAudit, JobEvents } from './ports';
import type { RunnableJobType } from './registry';
import { CLAIM_GAP_POLLS, CLAIM_HORIZON_POLLS, CLAIM_LOOKAHEAD_POLLS, WorkerSlots } from './workerSlots';
import { logClaimed, logParked } from './claimLog';

export interface WorkerOptions {
  /** Identifies this worker in leases (host, process, instance). */
  owner: string;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Transient failures retried before a job fails. */
  maxAttempts?: number;
  /**
   * What time it is (epoch ms) when claiming jobs: which jobs are due, and their leases. The
   * system clock by default; tests move it to make timers due without waiting.
   */
  clock?: () => number;
  log: {
    debug?(o: object, m: string): void;
    info(o: object, m: string): void;
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  };
}

/**
 * Runs queued jobs: claims them with a lease, keeps the lease alive while working, records a
 * checkpoint after every step, parks a job whose step waits for the platform (`parked`, no slot
 * held, any worker resumes it when it is time to look again), retries transient platform failures
 * with backoff (the job is `delayed` meanwhile) and fails the job, with a readable reason, on
 * anything else.
 */
export class JobWorker {
  private readonly running = new Set<Promise<void>>();
  private readonly slots: WorkerSlots;
  private readonly leases: LeaseKeeper;
  private timer?: NodeJS.Timeout;
  /** The wake-up of each job this worker parked, cleared when a claim takes the job up early. */
  private readonly parkTimers = new Map<string, NodeJS.Timeout>();
  private ticking = false;
  private again = false;
  /** When the last claim was sent (epoch ms), and the claim put off until `CLAIM_GAP_POLLS` after it. */
  private lastClaimAt = 0;
  private spaced?: NodeJS.Timeout;
  private dueLater = false;
  private stopped = true;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      jobs: JobRepository;
      events: JobEvents;
      audit: JobAudit;
      types: Record<JobType, RunnableJobType>;
    },
    private readonly options: WorkerOptions,
  ) {
    this.leases = new LeaseKeeper(deps.db, options.owner, options.leaseMs, options.log, options.clock);
    this.slots = new WorkerSlots(
      options.concurrency,
      () => this.tickSoon(),
      () => this.tickSoon(true),
    );
  }

  /** Starts polling for jobs. */
  start(): void {
    if (!this.stopped || this.options.concurrency <= 0) return;
    this.stopped = false;
    this.wake();
  }

  /** Looks for jobs now rather than at the next poll (a job was just queued in this process). */
  wake(): void {
    this.slots.due();
    this.tickSoon();
  }

  /**
   * Something may have come due (the poll, a park's time, a bucketed job's end): looked for once the
   * last claim is `CLAIM_GAP_POLLS` old, so that what comes due within that time costs one claim. A
   * slot freed while the last claim left due jobs behind is filled at once (`WorkerSlots.freed`).
   */
  mayBeDue(): void {
    this.dueLater = true;
    this.tickSoon(true);
  }

  /** Claims now (`spaced`: once the last claim is `CLAIM_GAP_POLLS` old), or after the one under way. */
  private tickSoon(spaced = false): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    const waitMs = this.lastClaimAt + CLAIM_GAP_POLLS * this.options.pollMs - Date.now();
    if (spaced && waitMs > 0) {
      this.spaced ??= setTimeout(() => {
        this.spaced = undefined;
        this.tickSoon(true);
      }, waitMs).unref();
      return;
    }
    clearTimeout(this.timer);
    clearTimeout(this.spaced);
    this.spaced = undefined;
    if (this.dueLater) this.slots.due();
    this.dueLater = false;
    void this.tick();
  }

  /** Stops claiming and waits for the jobs in hand to finish or reach a checkpoint. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.spaced);
    this.spaced = undefined;
    for (const timer of this.parkTimers.values()) clearTimeout(timer);
    this.parkTimers.clear();
    await Promise.allSettled([...this.running]);
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    let full = false;
    try {
      do {
        this.again = false;
        const free = this.slots.free(this.running.size);
        if (free <= 0 || this.stopped) break;
        this.lastClaimAt = Date.now();
        const claimed = await this.claim(free);
        this.slots.claimed(free, claimed.length);
        for (const job of claimed) {
          const running: Promise<void> = this.runWhenDue(job).finally(() => {
            this.running.delete(running);
            // A job claimed for a budget bucket held one of its turns in every claim's count until
            // now: the jobs that waited for that turn may be claimed.
            if (job.budgetKey) this.mayBeDue();
            this.slots.freed();
          });
          this.running.add(running);
        }
        // A claim that got all it asked for may have left due jobs behind: claim again at once.
        full = claimed.length === free;
      } while (full && !this.stopped);
    } catch (error) {
      this.options.log.error({ err: error }, 'claiming jobs failed');
    } finally {
      this.ticking = false;
      if (!this.stopped) {
        clearTimeout(this.timer);
        // The process's HTTP server keeps it alive; a pending poll alone should not.
        this.timer = setTimeout(() => this.mayBeDue(), this.slots.pollDelay(this.options.pollMs)).unref();
        if (this.again) {
          this.again = false;
          this.tickSoon(true);
        }
      }
    }
  }

  /**
   * Claims up to `limit` jobs, then records that the new ones started. The claim is one statement
   * on its own (most claims find nothing, and a transaction around them would triple their cost);
   * a crash between it and the record leaves a job leased without its start on record, and the
   * worker that takes it up when the lease runs out records it then.
   */
  private async claim(limit: number): Promise<StoredJob[]> {
    const { jobs, audit } = this.deps;
    const now = (this.options.clock ?? Date.now)();
    // A budget bucket's turns up to a few polls ahead are worth claiming for: the jobs taken now
    // reach their turn before the worker claims again.
    const horizonMs = CLAIM_HORIZON_POLLS * this.options.pollMs;
    const claimed = await jobs.claim(
      this.options.owner,
      limit,
      this.options.leaseMs,
      now,
      undefined,
      horizonMs,
      CLAIM_LOOKAHEAD_POLLS * this.options.pollMs,
    );
    for (const job of claimed) {
      clearTimeout(this.parkTimers.get(job.id));
      this.parkTimers.delete(job.id);
    }
    logClaimed(this.options.log, claimed, now, this.running.size, this.slots.pacingCount);
    // A job back from a park goes on with the attempt that started it.
    const entries = claimed
      .filter((job) => !job.checkpoint.waiting)
      .flatMap((job) =>
        lifecycleRecord(this.deps.types[job.type]?.handler.trail, job, 'job_started', 'success', {
          attempt: job.attempts + 1,
          worker: this.options.owner,
        }),
      );
    await audit.recordAlone(entries, new Date(now));
    return claimed;
  }

  /**
   * Runs a claimed job at its time: a job a claim took before it was due waits for it first, in
   * the slot it was claimed for (at most `CLAIM_LOOKAHEAD_POLLS` polls), so that no more jobs than
   * the worker has slots for start work at once.
   */
  private async runWhenDue(job: StoredJob): Promise<void> {
    const early = job.runAt - (this.options.clock ?? Date.now)();
    if (early > 0) await sleep(early);
    await this.execute(job);
  }

  /** Runs a claimed job: its data parsed once, its steps checkpointed, its outcome recorded. */
  private async execute(job: StoredJob): Promise<void> {
    const { jobs } = this.deps;
    const owner = this.options.owner;
    const { module, handler } = this.deps.types[job.type];
    const parsed = module.data.safeParse(job.data);
    if (!parsed.success) {
      const problem = parsed.error.issues[0];
      const where = problem?.path.length ? ` at ${problem.path.join('.')}` : '';
      const error = new JobCannotRun(
        `The job's data is not a valid ${job.type}${where}: ${problem?.message}.`,
      );
      return failOrRetry(this.outcomes(), job, undefined, error);
    }
    const active = new ActiveRun(job, module.steps(job.data), parsed.data, {
      jobs,
      owner,
      leases: this.leases,
    });
    try {
      await withPacing(this.slots.lender, () => handler.run(active.run));
      await completeJob(this.outcomes(), job, handler, active.data);
    } catch (error) {
      if (error instanceof JobParked) await this.park(job, error.runAt, error.budgetKey);
      else await failOrRetry(this.outcomes(), job, { handler, data: active.data }, error);
    } finally {
      active.close();
    }
  }

  /**
   * Parks a job whose step waits for the platform: written with what it waits for, released, and
   * looked at again at `runAt` by whichever worker claims it then (this one wakes up for it), and
   * when `budgetKey` is given, once that budget bucket has a turn for it.
   */
  private async park(job: StoredJob, runAt: number, budgetKey?: string): Promise<void> {
    try {
      if (!(await this.deps.jobs.park(job, this.options.owner, runAt, new Date(), budgetKey))) {
        this.options.log.warn({ jobId: job.id }, 'lease lost; another worker carries on with the job');
        return;
      }
      logParked(this.options.log, job, runAt);
      if (this.stopped) return;
      clearTimeout(this.parkTimers.get(job.id));
      const timer = setTimeout(
        () => {
          this.parkTimers.delete(job.id);
          this.mayBeDue();
        },
        Math.max(0, runAt - Date.now()),
      ).unref();
      this.parkTimers.set(job.id, timer);
    } catch (error) {
      // The lease runs out and another worker (or a restart) takes the job up again.
      this.options.log.error({ err: error, jobId: job.id }, 'could not park a job');
    }
  }

  /** What recording a job's outcome needs of this worker. */
  private outcomes(): OutcomeContext {
    const { db, jobs, events, audit, types } = this.deps;
    const { owner, log, maxAttempts } = this.options;
    return {
      db,
      jobs,
      events,
      audit,
      owner,
      log,
      maxAttempts: maxAttempts ?? 5,
      trailOf: (job) => types[job.type]?.handler.trail,
    };
  }
}
