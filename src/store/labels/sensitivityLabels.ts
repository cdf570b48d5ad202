import type { Kysely, Transaction } from 'kysely';
import type { Database, TeamLabelRow } from '../schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Delegated grants (sealed by the service; this store never sees them open) and each labelled
 * team's label status.
 */
export class SensitivityLabelRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Keeps the job's grants (one sealed list), replacing what was kept for it before. */
  async putGrant(
    row: { jobId: string; userId: string; sealed: string; expiresAt: Date },
    db: Db = this.db,
  ): Promise<void> {
    const values = {
      job_id: row.jobId,
      user_id: row.userId,
      sealed: row.sealed,
      expires_at: row.expiresAt.toISOString(),
    };
    await db
      .insertInto('delegated_grants')
      .values(values)
      .onConflict((oc) =>
        oc
          .column('job_id')
          .doUpdateSet({ user_id: values.user_id, sealed: values.sealed, expires_at: values.expires_at }),
      )
      .execute();
  }

  /** The job's sealed grants as kept now (to add one to them), expired or not. */
  async findGrant(
    jobId: string,
    db: Db = this.db,
  ): Promise<{ sealed: string; expiresAt: string } | undefined> {
    const row = await db
      .selectFrom('delegated_grants')
      .select(['sealed', 'expires_at'])
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return row && { sealed: row.sealed, expiresAt: row.expires_at };
  }

  /**
   * Takes the job's grant out of the store: it is deleted as it is read, so it is used at most once.
   * An expired one is deleted and not returned.
   */
  async takeGrant(jobId: string, now: Date): Promise<{ userId: string; sealed: string } | undefined> {
    const row = await this.db
      .deleteFrom('delegated_grants')
      .where('job_id', '=', jobId)
      .returning(['user_id', 'sealed', 'expires_at'])
      .executeTakeFirst();
    if (!row || row.expires_at <= now.toISOString()) return undefined;
    return { userId: row.user_id, sealed: row.sealed };
  }

  /** Deletes the job's grant, if any (the job ended without using it). */
  async dropGrant(jobId: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('delegated_grants').where('job_id', '=', jobId).execute();
  }

  /** Deletes every expired grant; returns how many. */
  async dropExpired(now: Date, db: Db = this.db): Promise<number> {
    const result = await db
      .deleteFrom('delegated_grants')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Records what became of a team's label. */
  async record(row: TeamLabelRow, db: Db = this.db): Promise<void> {
    await db
      .insertInto('team_labels')
      .values(row)
      .onConflict((oc) =>
        oc.column('team_id').doUpdateSet({
          display_name: row.display_name,
          label_id: row.label_id,
          status: row.status,
          reason: row.reason,
          applied_by: row.applied_by,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  /** The team's label record, if it was made from a template with a label. */
  find(teamId: string): Promise<TeamLabelRow | undefined> {
    return this.db.selectFrom('team_labels').selectAll().where('team_id', '=', teamId).executeTakeFirst();
  }

  /** Teams without their template's label, oldest first; `limit` of them, and how many in all. */
  async missing(limit: number): Promise<{ rows: TeamLabelRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('team_labels')
        .selectAll()
        .where('status', '=', 'missing')
        .orderBy('updated_at')
        .orderBy('team_id')
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('team_labels')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'missing')
        .executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }
}
