import type { StoredJob, StoredJobStatus } from '../../domain/jobs';
import { isPostgres } from '../dialect';
import { JobLeases } from './jobLeases';
import { readQueuePaused, writeQueuePaused } from './queuePause';
import { type NewJob, newJobRow, toJob } from './jobRows';
import type { Db } from '../schema';

export type { JobProgress, NewJob } from './jobRows';

/** The statuses of a job not finished (the partial index of migration 0022 names the same). */
const PENDING_STATUSES: StoredJobStatus[] = ['waiting', 'active', 'parked', 'delayed'];

/**
 * The durable job queue: queueing, reads, changes to jobs no worker holds, and the pause switch.
 * Claims and the changes a worker makes under its lease are `JobLeases`' (jobLeases.ts).
 */
export class JobRepository extends JobLeases {
  /** Inserts a job (inside the caller's transaction when given one). */
  async insert(job: NewJob, now: Date, trx: Db = this.db): Promise<StoredJob> {
    const row = newJobRow(job, now);
    await trx.insertInto('jobs').values(row).execute();
    return toJob(row);
  }

  /**
   * Inserts a job of a kind the database allows once per team while pending (migration 0022,
   * `jobs_one_pending_per_team`: drift applies, archives and unarchives), unless one is pending
   * already: then nothing is inserted and that one is returned, `inserted: false`. The index
   * decides, not a read before the insert, so of two requests at once, in any processes, exactly
   * one inserts; on PostgreSQL the second waits for the first's transaction and sees its job.
   */
  async insertOncePerTeam(
    job: NewJob & { teamId: string },
    now: Date,
    trx: Db,
  ): Promise<{ job: StoredJob; inserted: boolean }> {
    const row = newJobRow(job, now);
    // A pending job found by the index may end before it is read: then the insert is tried again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const added = await trx
        .insertInto('jobs')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (added) return { job: toJob(row), inserted: true };
      const pending = await this.pendingOf(job.teamId, job.type, trx);
      if (pending) return { job: pending, inserted: false };
    }
    throw new Error(`a ${job.type} job of team ${job.teamId} neither inserted nor found pending`);
  }

  /** The pending job of `type` for a team, if any (the kinds `insertOncePerTeam` queues). */
  async pendingOf(
    teamId: string,
    type: StoredJob['type'],
    trx: Db = this.db,
  ): Promise<StoredJob | undefined> {
    const row = await trx
      .selectFrom('jobs')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('type', '=', type)
      .where('status', 'in', PENDING_STATUSES)
      .executeTakeFirst();
    return row && toJob(row);
  }

  async get(id: string, trx: Db = this.db): Promise<StoredJob | undefined> {
    const row = await trx.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toJob(row);
  }

  /** The jobs of `ids` that exist, in no particular order. */
  async getMany(ids: readonly string[]): Promise<StoredJob[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toJob);
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
   * Changes a job that no worker holds (a decision on its approval), if it is still `expected`;
   * returns false when it is not.
   */
  async updateUnclaimed(
    id: string,
    expected: StoredJobStatus,
    change: {
      status?: StoredJobStatus;
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
  isPaused(): Promise<boolean> {
    return readQueuePaused(this.db);
  }

  /** Pauses or resumes the queue. */
  setPaused(paused: boolean): Promise<void> {
    return writeQueuePaused(this.db, paused);
  }
}
