import { type Kysely, sql } from 'kysely';
import { FIRST_CLAIMED_JOB_TYPES, type StoredJob } from '../../domain/jobs';
import { isPostgres } from '../dialect';
import { PAUSED_KEY } from './queuePause';
import { type JobProgress, stateOf, toJob } from './jobRows';
import type { Database, Db } from '../schema';

/**
 * A worker's side of the durable job queue: jobs are claimed with a lease, and every change a
 * worker writes is checked against it. `JobRepository` (jobs.ts) adds the reads and the changes
 * made to jobs no worker holds.
 */
export class JobLeases {
  constructor(protected readonly db: Kysely<Database>) {}

  /**
   * Claims up to `limit` runnable jobs for `owner` until `now + leaseMs`: waiting, delayed or
   * parked jobs that are due, and active jobs whose lease expired (their worker died), oldest due
   * first, webhook deliveries before the rest (`FIRST_CLAIMED_JOB_TYPES`) and jobs under way
   * before jobs not started yet. A job that names the Graph budget bucket its next call waits for (`budget_key`) is taken
   * only while that bucket has a turn free before `now + horizonMs`, and no more of a bucket's
   * jobs than it has such turns: work the budget cannot serve now stays in the queue, for later
   * or for whichever worker's turn it is, and the slot goes to work that can run. One statement
   * picks and takes them. Two workers may pick the same job: the update checks again, on the row
   * as it is then, that the job is still runnable (PostgreSQL re-reads a row another claim just
   * took), so only one gets it; SQLite runs the statement under its single writer lock.
   *
   * With `lookaheadMs`, a waiting, delayed or parked job due within that time is taken too: its
   * worker runs it at its `run_at` (`job.runAt`), not before, and one claim takes up the jobs that
   * come due together instead of one statement each.
   */
  async claim(
    owner: string,
    limit: number,
    leaseMs: number,
    now: number,
    trx: Db = this.db,
    horizonMs = 1000,
    lookaheadMs = 0,
  ): Promise<StoredJob[]> {
    if (limit <= 0) return [];
    const postgres = isPostgres(trx);
    const greatest = postgres ? 'GREATEST' : 'max';
    // The budget's turns are on the budget's clock (`graphBudget.ts`): the database's on PostgreSQL.
    const budgetNow = postgres ? sql`(floor(extract(epoch from now()) * 1000))::bigint` : Date.now();
    const horizon = sql`(${budgetNow} + ${horizonMs})`;
    // A paused queue hands out nothing; checked in the same statement, not by a read before it.
    // The update finds its rows by their ids: `+queued` keeps SQLite from reading them all through
    // the queued column's index instead (every job the queue ran is queued).
    const runnable = sql`+queued = 1
      AND NOT EXISTS (SELECT 1 FROM steward_meta WHERE key = ${PAUSED_KEY} AND value = 'true')
      AND ((status IN ('waiting', 'delayed', 'parked') AND run_at <= ${now + lookaheadMs})
        OR (status = 'active' AND lease_until < ${now}))`;
    // Jobs that wait for no Graph bucket are simply taken in order: the first `limit` of them are
    // enough. The n-th job of a bucket runs at the bucket's n-th turn from now at the soonest: it is
    // taken when that turn comes before the horizon. Jobs of the bucket that workers hold (their key
    // is kept until they park or end) come first: a claimed job may not have reserved its turn yet.
    // Only the bucketed jobs are numbered: a window over every due job made a claim's cost grow with
    // the backlog (bench/RESULTS.md, "claim": 3.2 ms on SQLite with 1 000 due, 1.5 ms now).
    // The jobs looked at are read in disjoint parts, each by the `jobs_claim` index (queued, status,
    // run_at): the queue keeps every job it ever ran, and a scan of them all, large bodies included,
    // made a claim cost 9 ms on SQLite with 20 000 finished jobs.
    // Held jobs are counted whether queued or not; `queued IN (0, 1)` lets that part use the index.
    const due = sql`queued = 1 AND status IN ('waiting', 'delayed', 'parked') AND run_at <= ${now + lookaheadMs}`;
    const expired = sql`queued = 1 AND status = 'active' AND lease_until < ${now}`;
    // A job under way (back from a park or a delay, or its worker gone) comes before a job not yet
    // started (`waiting`), whatever their times: a new provisioning upserts its group and parks for
    // Graph's replication, so taking the backlog of new requests first kept the jobs back from that
    // wait from their `POST /teams` turns until every request had been taken up (bench/RESULTS.md,
    // graph-pace: no team asked for in the first 10 s of 200 requests). Every job started ends,
    // so new work waits at most for the work under way, which the budget's turns pace anyway.
    const fresh = sql`CASE WHEN status = 'waiting' THEN 1 ELSE 0 END`;
    const order = sql`CASE WHEN type IN (${sql.join(FIRST_CLAIMED_JOB_TYPES)}) THEN 0 ELSE 1 END, fresh, run_at, id`;
    const free = sql`SELECT id, type, fresh, run_at AS at FROM (
        SELECT id, type, ${fresh} AS fresh, run_at FROM jobs WHERE ${due} AND budget_key IS NULL
        UNION ALL
        SELECT id, type, 0 AS fresh, run_at FROM jobs WHERE ${expired} AND budget_key IS NULL
      ) unbucketed ORDER BY ${order} LIMIT ${limit}`;
    const bucketed = sql`
        SELECT id, type, ${fresh} AS fresh, run_at, budget_key, 0 AS held FROM jobs
          WHERE ${due} AND budget_key IS NOT NULL
        UNION ALL
        SELECT id, type, 0 AS fresh, run_at, budget_key, 0 AS held FROM jobs
          WHERE ${expired} AND budget_key IS NOT NULL
        UNION ALL
        SELECT id, type, 0 AS fresh, run_at, budget_key, 1 AS held FROM jobs
          WHERE queued IN (0, 1) AND status = 'active' AND lease_until >= ${now} AND budget_key IS NOT NULL`;
    // A bucketed job's turn: its bucket's next free turn, then one interval for each job before it.
    const turn = sql`${sql.raw(greatest)}(b.tat, ${budgetNow}) + (due.nth - 1) * b.interval_ms`;
    const turned = sql`SELECT due.id, due.type, due.fresh,
        CASE WHEN b.key IS NULL THEN due.run_at ELSE ${sql.raw(greatest)}(due.run_at, ${turn}) END AS at FROM (
        SELECT id, type, fresh, run_at, budget_key, held,
          row_number() OVER (PARTITION BY budget_key ORDER BY held DESC, fresh, run_at, id) AS nth
        FROM (${bucketed}) looked
      ) due LEFT JOIN graph_budget b ON b.key = due.budget_key
      WHERE due.held = 0 AND (b.key IS NULL OR (b.tat < ${horizon} AND (b.interval_ms <= 0
        OR due.nth <= (${horizon} - ${sql.raw(greatest)}(b.tat, ${budgetNow}) + b.interval_ms - 1) / b.interval_ms)))`;
    // (SQLite takes ORDER BY and LIMIT in a compound's part only inside a subquery.)
    // The picked jobs are taken by when each can work: a due job before a new provisioning whose
    // `POST /teams` turn is seconds away. By `run_at` alone, a backlog of new requests (queued
    // first) took every claim while the jobs that wait on their created teams came due behind it,
    // so Graph's `other` rate idled while the `createTeam` rate was spent (bench/RESULTS.md,
    // graph-pace with replication delays).
    const byTurn = sql`CASE WHEN type IN (${sql.join(FIRST_CLAIMED_JOB_TYPES)}) THEN 0 ELSE 1 END, fresh, at, id`;
    const candidates = sql`SELECT id FROM (
        SELECT id, type, fresh, at FROM (${free}) soonest UNION ALL ${turned}
      ) picked ORDER BY ${byTurn} LIMIT ${limit}`;
    const rows = await trx
      .updateTable('jobs')
      .set({
        status: 'active',
        lease_owner: owner,
        lease_until: now + leaseMs,
        updated_at: new Date(now).toISOString(),
      })
      .where(sql<boolean>`id IN (${candidates}) AND ${runnable}`)
      .returningAll()
      .execute();
    // An update returns its rows in no set order: put them back in the order they were picked.
    const rank = (job: StoredJob) => (FIRST_CLAIMED_JOB_TYPES.includes(job.type) ? 0 : 1);
    return rows
      .map(toJob)
      .sort((a, b) => rank(a) - rank(b) || a.runAt - b.runAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
  park(
    job: StoredJob,
    owner: string,
    runAt: number,
    now: Date,
    budgetKey?: string,
    trx: Db = this.db,
  ): Promise<boolean> {
    return this.release(job, owner, 'parked', runAt, now, trx, budgetKey);
  }

  /** Gives up `owner`'s lease on a job that runs again at `runAt`; false when the lease was lost. */
  private async release(
    job: StoredJob,
    owner: string,
    status: 'delayed' | 'parked',
    runAt: number,
    now: Date,
    trx: Db,
    budgetKey?: string,
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
        budget_key: budgetKey ?? null,
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
