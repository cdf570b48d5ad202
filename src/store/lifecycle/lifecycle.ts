import { type Kysely, sql } from 'kysely';
import { EMPTY_LIFECYCLE_RECORD, type LifecycleRecord } from '../../domain/lifecycle/decide';
import type { LifecycleStanding } from '../../domain/lifecycle/standing';
import { isPostgres } from '../dialect';
import { type NewJob, newJobRow } from '../jobs/jobRows';
import type { Database, Db, TeamLifecycleRow } from '../schema';

/** The `steward_meta` key of the tenant's default lifecycle policy (JSON). */
const TENANT_POLICY_KEY = 'lifecycle_policy';

/**
 * A team's last activity on conflict: the later of the stored day and the new one (days compare as
 * text), so a report that has not seen an owner's "Keep it" yet does not undo it.
 */
const LATER_ACTIVITY = {
  last_activity_on: sql<string>`case when team_lifecycle.last_activity_on is null or excluded.last_activity_on > team_lifecycle.last_activity_on then excluded.last_activity_on else team_lifecycle.last_activity_on end`,
  updated_at: sql<string>`excluded.updated_at`,
};

/** Rows written in one statement (SQLite allows 32 766 bound values; a row binds 13). */
/** Rows written in one statement (SQLite allows 32 766 bound values; a row binds 19). */
const WRITE_BATCH = 500;

/** What the store keeps of a team's lifecycle: the decision record plus the platform's last activity. */
export interface StoredLifecycle {
  record: LifecycleRecord;
  lastActivityOn: string | null;
  /** Where the team stood at its last evaluation; null before its first. */
  standing: LifecycleStanding | null;
}

/** Lifecycle governance's rows: the tenant policy, and one row per team the evaluator has seen. */
export class LifecycleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The tenant's default policy as stored (JSON), or undefined before governance set one. */
  async tenantPolicy(): Promise<unknown> {
    const row = await this.db
      .selectFrom('steward_meta')
      .select('value')
      .where('key', '=', TENANT_POLICY_KEY)
      .executeTakeFirst();
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  async setTenantPolicy(policy: unknown, trx: Db = this.db): Promise<void> {
    const value = JSON.stringify(policy);
    await trx
      .insertInto('steward_meta')
      .values({ key: TENANT_POLICY_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** The stored lifecycle of each of `teamIds` that has one. */
  async load(teamIds: readonly string[], trx: Db = this.db): Promise<Map<string, StoredLifecycle>> {
    const found = new Map<string, StoredLifecycle>();
    if (teamIds.length === 0) return found;
    const rows = await trx
      .selectFrom('team_lifecycle')
      .selectAll()
      .where('team_id', 'in', [...teamIds])
      .execute();
    for (const row of rows) found.set(row.team_id, storedOf(row));
    return found;
  }

  /** The team's lifecycle row, locked until `trx` ends on PostgreSQL (a renewal reads, then writes). */
  async lock(teamId: string, trx: Db): Promise<StoredLifecycle | undefined> {
    const row = await trx
      .selectFrom('team_lifecycle')
      .selectAll()
      .where('team_id', '=', teamId)
      .$call((q) => (isPostgres(trx) ? q.forUpdate() : q))
      .executeTakeFirst();
    return row && storedOf(row);
  }

  /** Writes the records (inserting the teams seen for the first time), in batches. */
  async save(
    records: ReadonlyArray<{ teamId: string; record: LifecycleRecord; renewedBy?: string }>,
    evaluatedOn: string | null,
    now: Date,
    trx: Db = this.db,
  ): Promise<void> {
    for (let start = 0; start < records.length; start += WRITE_BATCH) {
      const rows = records.slice(start, start + WRITE_BATCH).map(({ teamId, record, renewedBy }) => ({
        ...rowOf(teamId, record, now),
        renewed_by: renewedBy ?? null,
        evaluated_on: evaluatedOn,
      }));
      await trx
        .insertInto('team_lifecycle')
        .values(rows)
        .onConflict((oc) =>
          oc.column('team_id').doUpdateSet((eb) => ({
            renewals: eb.ref('excluded.renewals'),
            renewed_on: eb.ref('excluded.renewed_on'),
            renewed_by: eb.fn.coalesce('excluded.renewed_by', 'team_lifecycle.renewed_by'),
            notices_sent: eb.ref('excluded.notices_sent'),
            expired_for: eb.ref('excluded.expired_for'),
            inactive_for: eb.ref('excluded.inactive_for'),
            ownerless_since: eb.ref('excluded.ownerless_since'),
            ownerless_escalated_on: eb.ref('excluded.ownerless_escalated_on'),
            guest_reviewed_on: eb.ref('excluded.guest_reviewed_on'),
            guest_review_due_for: eb.ref('excluded.guest_review_due_for'),
            evaluated_on: eb.fn.coalesce('excluded.evaluated_on', 'team_lifecycle.evaluated_on'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }

  /** Writes where the teams stand (inserting the teams seen for the first time), in batches. */
  async saveStanding(
    standings: ReadonlyArray<{ teamId: string; standing: LifecycleStanding }>,
    now: Date,
    trx: Db = this.db,
  ): Promise<void> {
    for (let start = 0; start < standings.length; start += WRITE_BATCH) {
      const rows = standings.slice(start, start + WRITE_BATCH).map(({ teamId, standing }) => ({
        ...rowOf(teamId, EMPTY_LIFECYCLE_RECORD, now),
        display_name: standing.displayName,
        is_archived: standing.isArchived ? 1 : 0,
        expires_on: standing.expiresOn,
        inactive_on: standing.inactiveOn,
        guest_review_due_on: standing.guestReviewDueOn,
      }));
      await trx
        .insertInto('team_lifecycle')
        .values(rows)
        .onConflict((oc) =>
          oc.column('team_id').doUpdateSet((eb) => ({
            display_name: eb.ref('excluded.display_name'),
            is_archived: eb.ref('excluded.is_archived'),
            expires_on: eb.ref('excluded.expires_on'),
            inactive_on: eb.ref('excluded.inactive_on'),
            guest_review_due_on: eb.ref('excluded.guest_review_due_on'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }

  /** Records the platform's last activity of each team (from its activity report), in batches. */
  async saveActivity(activity: ReadonlyArray<{ teamId: string; day: string }>, now: Date): Promise<void> {
    for (let start = 0; start < activity.length; start += WRITE_BATCH) {
      const rows = activity.slice(start, start + WRITE_BATCH).map(({ teamId, day }) => ({
        ...rowOf(teamId, EMPTY_LIFECYCLE_RECORD, now),
        last_activity_on: day,
      }));
      await this.db
        .insertInto('team_lifecycle')
        .values(rows)
        .onConflict((oc) => oc.column('team_id').doUpdateSet(LATER_ACTIVITY))
        .execute();
    }
  }

  /**
   * Records that the team was active on `day` (an owner's "Keep it"), kept over any earlier day:
   * the next activity report, which may not have seen it, does not take it back.
   */
  async recordActivity(teamId: string, day: string, now: Date, trx: Db = this.db): Promise<void> {
    await trx
      .insertInto('team_lifecycle')
      .values({ ...rowOf(teamId, EMPTY_LIFECYCLE_RECORD, now), last_activity_on: day })
      .onConflict((oc) => oc.column('team_id').doUpdateSet(LATER_ACTIVITY))
      .execute();
  }

  /** Queues `job` unless a job with its id exists; true when this call queued it. */
  async insertJobOnce(job: NewJob, now: Date): Promise<boolean> {
    const result = await this.db
      .insertInto('jobs')
      .values(newJobRow(job, now))
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** The template each of `teamIds` was provisioned from, for those Steward provisioned. */
  async templatesOf(teamIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (teamIds.length === 0) return found;
    const rows = await this.db
      .selectFrom('jobs')
      .select(['team_id', 'template_id'])
      .where('type', '=', 'ProvisioningRequest')
      .where('status', '=', 'completed')
      .where('team_id', 'in', [...teamIds])
      .execute();
    for (const row of rows) if (row.team_id && row.template_id) found.set(row.team_id, row.template_id);
    return found;
  }
}

function storedOf(row: TeamLifecycleRow): StoredLifecycle {
  const standing: LifecycleStanding | null =
    row.display_name === null
      ? null
      : {
          displayName: row.display_name,
          isArchived: Number(row.is_archived) === 1,
          expiresOn: row.expires_on,
          inactiveOn: row.inactive_on,
          guestReviewDueOn: row.guest_review_due_on,
        };
  return { record: recordOf(row), lastActivityOn: row.last_activity_on, standing };
}

function recordOf(row: TeamLifecycleRow): LifecycleRecord {
  return {
    renewals: Number(row.renewals),
    renewedOn: row.renewed_on,
    noticesSent: JSON.parse(row.notices_sent) as string[],
    expiredFor: row.expired_for,
    inactiveFor: row.inactive_for,
    ownerlessSince: row.ownerless_since,
    ownerlessEscalatedOn: row.ownerless_escalated_on,
    guestReviewedOn: row.guest_reviewed_on,
    guestReviewDueFor: row.guest_review_due_for,
  };
}

function rowOf(teamId: string, record: LifecycleRecord, now: Date): TeamLifecycleRow {
  return {
    team_id: teamId,
    renewals: record.renewals,
    renewed_on: record.renewedOn,
    renewed_by: null,
    notices_sent: JSON.stringify(record.noticesSent),
    expired_for: record.expiredFor,
    inactive_for: record.inactiveFor,
    ownerless_since: record.ownerlessSince,
    ownerless_escalated_on: record.ownerlessEscalatedOn,
    guest_reviewed_on: record.guestReviewedOn,
    guest_review_due_for: record.guestReviewDueFor,
    guest_review_key: null,
    guest_review: null,
    last_activity_on: null,
    evaluated_on: null,
    display_name: null,
    is_archived: null,
    expires_on: null,
    inactive_on: null,
    guest_review_due_on: null,
    updated_at: now.toISOString(),
  };
}
