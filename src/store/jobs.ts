import type { Kysely } from 'kysely';
import type { StoredJob } from '../domain/jobs';
import type { JobStatus } from '../domain/wire';
import { isPostgres } from './dialect';
import { type JobProgress, type NewJob, newJobRow, stateOf, toJob } from './jobRows';
import type { Database, Db } from './schema';

export type { JobProgress, NewJob } from './jobRows';

const PAUSED_KEY = 'queue_paused';

/** The durable job queue. Workers claim jobs with a lease; every change by a worker is checked against it. */
export class JobRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a job (inside the caller's transaction when given one). */
  async insert(job: NewJob, now: Date, trx: Db = this.db): Promise<StoredJob> {
    const row = newJobRow(job, now);
    await trx.insertInto('jobs').values(row).execute();
    return toJob(row);
  }

  async get(id: string, trx: Db = this.db): Promise<StoredJob | undefined> {
    const row = await trx.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toJob(row);
  }

  /** A requester's most recent jobs of `types`, newest first. */
  async listForRequester(
    requesterId: string,
    types: readonly string[],
    limit: number,
  ): Promise<{ jobs: StoredJob[]; total: number }> {
    const mine = this.db
      .selectFrom('jobs')
      .where('requester_id', '=', requesterId)
      .where('type', 'in', [...types]);
    const [rows, counted] = await Promise.all([
      mine.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      mine.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { jobs: rows.map(toJob), total: Number(counted.n) };
  }

  /** The job a requester created earlier with the same idempotency key. */
  async findByIdempotencyKey(requesterId: string, key: string): Promise<StoredJob | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('requester_id', '=', requesterId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row && toJob(row);
  }

  /**
   * True when a provisioning job for `templateId` exists that has not failed (singleton templates).
   * On PostgreSQL the template's row is locked until `trx` ends, so two concurrent requests cannot
   * both find it unused; SQLite serialises writing transactions already.
   */
  async templateInUse(templateId: string, trx: Db = this.db): Promise<boolean> {
    if (isPostgres(trx)) {
      await trx
        .selectFrom('catalog_templates')
        .select('id')
        .where('id', '=', templateId)
        .forUpdate()
        .execute();
    }
    const row = await trx
      .selectFrom('jobs')
      .select('id')
      .where('template_id', '=', templateId)
      .where('status', '!=', 'failed')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Claims up to `limit` runnable jobs for `owner` until `now + leaseMs`: waiting or delayed jobs
   * that are due, and active jobs whose lease expired (their worker died). On PostgreSQL
   * `FOR UPDATE SKIP LOCKED` lets many workers claim at once without taking the same job.
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
          eb.and([eb('status', 'in', ['waiting', 'delayed']), eb('run_at', '<=', now)]),
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

  /** Extends `owner`'s lease; false when the lease was lost to another worker. */
  async renewLease(id: string, owner: string, leaseMs: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_until: now + leaseMs })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
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
  async delay(
    job: StoredJob,
    owner: string,
    runAt: number,
    logLine: string,
    now: Date,
    trx: Db = this.db,
  ): Promise<boolean> {
    job.status = 'delayed';
    job.attempts += 1;
    job.log = [...job.log, logLine];
    job.updatedAt = now.toISOString();
    const result = await trx
      .updateTable('jobs')
      .set({
        ...stateOf(job),
        status: 'delayed',
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

  /**
   * Changes a job that no worker holds (a decision on its approval), if it is still `expected`;
   * returns false when it is not.
   */
  async updateUnclaimed(
    id: string,
    expected: JobStatus,
    change: {
      status?: JobStatus;
      queued?: boolean;
      data?: Record<string, unknown>;
      appendLog?: string[];
      failedReason?: string;
    },
    now: Date,
    trx: Db,
  ): Promise<boolean> {
    const job = await this.get(id, trx);
    if (!job || job.status !== expected || job.leaseOwner) return false;
    const iso = now.toISOString();
    const finished = change.status === 'failed' || change.status === 'completed';
    const result = await trx
      .updateTable('jobs')
      .set({
        status: change.status ?? job.status,
        queued: change.queued === undefined ? (job.queued ? 1 : 0) : change.queued ? 1 : 0,
        data: JSON.stringify(change.data ?? job.data),
        log: JSON.stringify([...job.log, ...(change.appendLog ?? [])]),
        failed_reason: change.failedReason ?? job.failedReason,
        run_at: now.getTime(),
        updated_at: iso,
        completed_at: finished ? iso : job.completedAt,
      })
      .where('id', '=', id)
      .where('status', '=', expected)
      .where('lease_owner', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Counts jobs by status (for tests, metrics and benchmarks). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** True while an operator has paused the queue: workers claim nothing. */
  async isPaused(): Promise<boolean> {
    const row = await this.db
      .selectFrom('steward_meta')
      .select('value')
      .where('key', '=', PAUSED_KEY)
      .executeTakeFirst();
    return row?.value === 'true';
  }

  /** Pauses or resumes the queue. */
  async setPaused(paused: boolean): Promise<void> {
    const value = String(paused);
    await this.db
      .insertInto('steward_meta')
      .values({ key: PAUSED_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
