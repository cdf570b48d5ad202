import type { Kysely, Transaction } from 'kysely';
import { type AuditEntry, type AuditTrailCode, SYSTEM_ACTOR } from '../domain/audit';
import { type JobType, retryDelayMs, type StoredJob } from '../domain/jobs';
import { PlatformError, StewardError } from '../domain/errors';
import { JobRepository } from '../store/jobs';
import type { Database } from '../store/schema';
import type { AuditLog } from './audit';
import type { EventBus, StewardEvent } from './events';

/** What a step reports: log lines, new job data, the team it created. */
export interface StepResult {
  log?: string[];
  data?: Record<string, unknown>;
  teamId?: string;
}

/** A job being run by a worker: steps are skipped when the checkpoint says they are done. */
export interface JobRun {
  readonly job: StoredJob;
  step(name: string, progress: number, work: () => Promise<StepResult | void>): Promise<void>;
}

/** How one type of job is carried out. */
export interface JobHandler {
  /** The audit trail where this type's jobs record starting, retrying, completing and failing; none when absent. */
  readonly trail?: AuditTrailCode;
  run(run: JobRun): Promise<void>;
  /** Events recorded in the transaction that completes the job. */
  completed(job: StoredJob, trx: Transaction<Database>, now: Date): Promise<StewardEvent[]>;
  /** Events recorded in the transaction that fails the job. */
  failed(job: StoredJob, reason: string, trx: Transaction<Database>, now: Date): Promise<StewardEvent[]>;
  /**
   * The handler's own retry policy: milliseconds to wait before the next attempt after attempt
   * `attempt` (1-based) failed with `error`, or `undefined` to fail the job. Without it, transient
   * platform errors are retried with exponential backoff.
   */
  retryDelay?(error: unknown, attempt: number): number | undefined;
}

export interface WorkerOptions {
  /** Identifies this worker in leases (host, process, instance). */
  owner: string;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Transient failures retried before a job fails. */
  maxAttempts?: number;
  log: {
    info(o: object, m: string): void;
    warn(o: object, m: string): void;
    error(o: object, m: string): void;
  };
}

/** How often a running job's progress reaches the database at most (a progress card polls it). */
const PROGRESS_WRITE_MS = 250;

/** Raised inside a run when another worker took the job over (this worker's lease expired). */
class LeaseLost extends Error {}

/**
 * Runs queued jobs: claims them with a lease, keeps the lease alive while working, records a
 * checkpoint after every step, retries transient platform failures with backoff (the job is
 * `delayed` meanwhile) and fails the job, with a readable reason, on anything else.
 */
export class JobWorker {
  private readonly running = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private ticking = false;
  private again = false;
  private stopped = true;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      jobs: JobRepository;
      events: EventBus;
      audit: AuditLog;
      handlers: Record<JobType, JobHandler>;
    },
    private readonly options: WorkerOptions,
  ) {}

  /** Starts polling for jobs. */
  start(): void {
    if (!this.stopped || this.options.concurrency <= 0) return;
    this.stopped = false;
    this.wake();
  }

  /** Looks for jobs now rather than at the next poll (a job was just queued in this process). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    void this.tick();
  }

  /** Stops claiming and waits for the jobs in hand to finish or reach a checkpoint. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      do {
        this.again = false;
        const free = this.options.concurrency - this.running.size;
        if (free <= 0 || this.stopped) break;
        const claimed = await this.claim(free);
        for (const job of claimed) {
          const running: Promise<void> = this.execute(job).finally(() => {
            this.running.delete(running);
            this.wake();
          });
          this.running.add(running);
        }
        if (claimed.length === free) this.again = true;
      } while (this.again && !this.stopped);
    } catch (error) {
      this.options.log.error({ err: error }, 'claiming jobs failed');
    } finally {
      this.ticking = false;
      if (!this.stopped) {
        clearTimeout(this.timer);
        // The process's HTTP server keeps it alive; a pending poll alone should not.
        this.timer = setTimeout(() => this.wake(), this.options.pollMs).unref();
      }
    }
  }

  /** Claims up to `limit` jobs and records, in the same transaction, that they started. */
  private claim(limit: number): Promise<StoredJob[]> {
    const { db, jobs, audit } = this.deps;
    return db.transaction().execute(async (trx) => {
      const now = Date.now();
      const claimed = await jobs.claim(this.options.owner, limit, this.options.leaseMs, now, trx);
      const entries = claimed.flatMap((job) =>
        this.lifecycle(job, 'job_started', 'success', {
          attempt: job.attempts + 1,
          worker: this.options.owner,
        }),
      );
      await audit.record(trx, entries, new Date(now));
      return claimed;
    });
  }

  /** The audit record of a step in a job's life, in its handler's trail (none when it has none). */
  private lifecycle(
    job: StoredJob,
    action: string,
    outcome: AuditEntry['outcome'],
    details: Record<string, unknown>,
  ): AuditEntry[] {
    const trail = this.deps.handlers[job.type]?.trail;
    if (!trail) return [];
    const team = (job.data as { team?: { displayName?: unknown } }).team;
    const displayName = typeof team?.displayName === 'string' ? team.displayName : undefined;
    return [
      {
        trail,
        action,
        actor: SYSTEM_ACTOR,
        target: { type: 'job', id: job.id, ...(displayName ? { displayName } : {}) },
        outcome,
        requestId: null,
        details: { jobType: job.type, requester: job.requesterId, ...details },
      },
    ];
  }

  private async execute(job: StoredJob): Promise<void> {
    const { jobs, db, events } = this.deps;
    const owner = this.options.owner;
    const handler = this.deps.handlers[job.type];
    let lost = false;
    let savedAt = Date.now();
    const heartbeat = setInterval(
      () => {
        jobs.renewLease(job.id, owner, this.options.leaseMs, Date.now()).then(
          (held) => {
            if (!held) lost = true;
          },
          () => {},
        );
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    const run: JobRun = {
      job,
      step: async (name, progress, work) => {
        if (lost) throw new LeaseLost();
        if (job.checkpoint.done.includes(name)) return;
        const result = (await work()) ?? {};
        if (lost) throw new LeaseLost();
        const checkpoint = {
          ...job.checkpoint,
          done: [...job.checkpoint.done, name],
          ...(result.teamId ? { teamId: result.teamId } : {}),
        };
        JobRepository.apply(job, {
          progress,
          appendLog: result.log,
          data: result.data,
          checkpoint,
          teamId: result.teamId,
        });
        // The step that creates something not findable by name (the team) is saved at once; the
        // others are idempotent, so their progress is saved at most every PROGRESS_WRITE_MS and
        // otherwise with the job's last write.
        if (result.teamId || Date.now() - savedAt >= PROGRESS_WRITE_MS) {
          if (!(await jobs.save(job, owner, new Date()))) throw new LeaseLost();
          savedAt = Date.now();
        }
      },
    };
    try {
      await handler.run(run);
      const published = await db.transaction().execute(async (trx) => {
        const now = new Date();
        if (!(await jobs.finish(job, owner, { status: 'completed', appendLog: ['Completed.'] }, now, trx))) {
          throw new LeaseLost();
        }
        const teamId = job.teamId ?? job.checkpoint.teamId;
        await this.deps.audit.record(
          trx,
          this.lifecycle(job, 'job_completed', 'success', teamId ? { teamId } : {}),
          now,
        );
        return handler.completed(job, trx, now);
      });
      events.publish(published);
    } catch (error) {
      await this.failOrRetry(job, handler, error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async failOrRetry(job: StoredJob, handler: JobHandler, error: unknown): Promise<void> {
    if (error instanceof LeaseLost) {
      this.options.log.warn({ jobId: job.id }, 'lease lost; another worker carries on with the job');
      return;
    }
    const { jobs, db, events } = this.deps;
    const owner = this.options.owner;
    const message = error instanceof Error ? error.message : String(error);
    const attempt = job.attempts + 1;
    const maxAttempts = this.options.maxAttempts ?? 5;
    try {
      const wait = handler.retryDelay
        ? handler.retryDelay(error, attempt)
        : error instanceof PlatformError && error.transient && attempt < maxAttempts
          ? retryDelayMs(attempt, error.retryAfterMs ?? 0)
          : undefined;
      if (wait !== undefined) {
        const line = `Attempt ${attempt} failed: ${message} Retrying in ${Math.ceil(wait / 1000)} s.`;
        await db.transaction().execute(async (trx) => {
          const now = new Date();
          const runAt = now.getTime() + wait;
          if (!(await jobs.delay(job, owner, runAt, line, now, trx))) return;
          const details = { attempt, reason: message, retryAt: new Date(runAt).toISOString() };
          await this.deps.audit.record(trx, this.lifecycle(job, 'job_delayed', 'failure', details), now);
        });
        return;
      }
      if (!(error instanceof PlatformError) && !(error instanceof StewardError)) {
        this.options.log.error({ err: error, jobId: job.id }, 'job failed unexpectedly');
      }
      const created = job.checkpoint.teamId
        ? ` The team ${job.checkpoint.teamId} was created before the failure.`
        : '';
      const reason = `${message}${created}`;
      const published = await db.transaction().execute(async (trx) => {
        const now = new Date();
        const lines = [`Attempt ${attempt} failed: ${message}`, `Failed.${created}`];
        if (
          !(await jobs.finish(
            job,
            owner,
            { status: 'failed', failedReason: reason, appendLog: lines },
            now,
            trx,
          ))
        ) {
          return [];
        }
        await this.deps.audit.record(
          trx,
          this.lifecycle(job, 'job_failed', 'failure', { attempt, reason }),
          now,
        );
        return handler.failed(job, reason, trx, now);
      });
      events.publish(published);
    } catch (recordError) {
      // The lease runs out and another worker (or a restart) takes the job up again.
      this.options.log.error({ err: recordError, jobId: job.id }, 'could not record the outcome of a job');
    }
  }
}
