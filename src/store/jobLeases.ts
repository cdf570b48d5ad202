import type { Kysely } from 'kysely';
import type { StoredJob } from '../domain/jobs';
import { isPostgres } from './dialect';
import { PAUSED_KEY } from './queuePause';
import { type JobProgress, stateOf, toJob } from './jobRows';
import type { Database, Db } from './schema';

/**
 * A worker's side of the durable job queue: jobs are claimed with a lease, and every change a
 * worker writes is checked against it. `JobRepository` (jobs.ts) adds the reads and the changes
 * made to jobs no worker holds.
 */
export class JobLeases {
  constructor(protected readonly db: Kysely<Database>) {}

  /**
   * Claims up to `limit` runnable jobs for `owner` until `now + leaseMs`: waiting, delayed or
   * parked jobs that are due, and active jobs whose lease expired (their worker died). One
   * statement picks and takes them: on PostgreSQL `FOR UPDATE SKIP LOCKED` lets many workers claim
   * at once without taking the same job; SQLite runs it under its single writer lock (transactions
   * begin immediate), so a second process sees the first one's claim.
   */
  async claim(
    owner: string,
    limit: number,
    leaseMs: number,
    now: number,
    trx: Db = this.db,
  ): Promise<StoredJob[]> {
    if (limit <= 0) return [];
    const postgres = isPostgres(trx);
    const candidates = trx
      .selectFrom('jobs')
      .select('id')
      .where('queued', '=', 1)
      // A paused queue hands out nothing; checked in the same statement, not by a read before it.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('steward_meta')
              .select('key')
              .where('key', '=', PAUSED_KEY)
              .where('value', '=', 'true'),
          ),
        ),
      )
      .where((eb) =>
        eb.or([
          eb.and([eb('status', 'in', ['waiting', 'delayed', 'parked']), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'active'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(limit);
    const rows = await trx
      .updateTable('jobs')
      .set({
        status: 'active',
        lease_owner: owner,
        lease_until: now + leaseMs,
        updated_at: new Date(now).toISOString(),
      })
      .where('id', 'in', postgres ? candidates.forUpdate().skipLocked() : candidates)
      .returningAll()
      .execute();
    return rows.map(toJob);
  }

  /** Applies a change to the in-memory job only; `save` (or `finish` / `delay`) writes it. */
  static apply(job: StoredJob, change: JobProgress): void {
    if (change.appendLog) job.log = [...job.log, ...change.appendLog];
    if (change.progress !== undefined) job.progress = change.progress;
    if (change.data) job.data = change.data;
    if (change.checkpoint) job.checkpoint = change.checkpoint;
    if (change.teamId !== undefined) job.teamId = change.teamId;
  }

  /**
   * Writes the job's progress, log, data and checkpoint under `owner`'s lease, in the caller's
   * transaction when given one. Returns false (and changes nothing) when the lease is no longer `owner`'s.
   */
  async save(job: StoredJob, owner: string, now: Date, trx: Db = this.db): Promise<boolean> {
    job.updatedAt = now.toISOString();
    const result = await trx
      .updateTable('jobs')
      .set({ ...stateOf(job), updated_at: job.updatedAt })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends a job held by `owner` as completed or failed; false when the lease was lost. */
  async finish(
    job: StoredJob,
    owner: string,
    outcome: { status: 'completed' | 'failed'; failedReason?: string; appendLog?: string[] },
    now: Date,
    trx: Db = this.db,
  ): Promise<boolean> {
    job.status = outcome.status;
    job.failedReason = outcome.failedReason ?? null;
    if (outcome.appendLog) job.log = [...job.log, ...outcome.appendLog];
    if (outcome.status === 'completed') job.progress = 100;
    job.updatedAt = now.toISOString();
    job.completedAt = job.updatedAt;
    const result = await trx
      .updateTable('jobs')
      .set({
        ...stateOf(job),
        status: job.status,
        failed_reason: job.failedReason,
        lease_owner: null,
        lease_until: null,
        updated_at: job.updatedAt,
        completed_at: job.completedAt,
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Puts a job held by `owner` back in the queue until `runAt` after a transient failure. */
  delay(job: StoredJob, owner: string, runAt: number, logLine: string, now: Date, trx: Db = this.db) {
    job.attempts += 1;
    job.log = [...job.log, logLine];
    return this.release(job, owner, 'delayed', runAt, now, trx);
  }

  /**
   * Parks a job held by `owner` until `runAt`: its step waits for the platform, and no worker holds
   * it meanwhile (its progress, log and checkpoint, with what it waits for, are written with it).
   * Not an attempt: a parked job is taken up again by whichever worker claims it at `runAt`.
   */
  park(job: StoredJob, owner: string, runAt: number, now: Date, trx: Db = this.db): Promise<boolean> {
    return this.release(job, owner, 'parked', runAt, now, trx);
  }

  /** Gives up `owner`'s lease on a job that runs again at `runAt`; false when the lease was lost. */
  private async release(
    job: StoredJob,
    owner: string,
    status: 'delayed' | 'parked',
    runAt: number,
    now: Date,
    trx: Db,
  ): Promise<boolean> {
    job.status = status;
    job.runAt = runAt;
    job.leaseOwner = null;
    job.updatedAt = now.toISOString();
    const result = await trx
      .updateTable('jobs')
      .set({
        ...stateOf(job),
        status,
        attempts: job.attempts,
        run_at: runAt,
        lease_owner: null,
        lease_until: null,
        updated_at: job.updatedAt,
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
