import { type Kysely, sql } from 'kysely';

/**
 * What the database decides when identical requests arrive at once (several API processes on one
 * database see each other's rows only once committed, so a check read before the write lets every
 * one of them through):
 *
 * - `jobs_one_pending_per_team`: at most one pending (`waiting`, `active`, `parked`, `delayed`)
 *   drift apply and one pending archive or unarchive per team. A second request inserts nothing
 *   (`ON CONFLICT DO NOTHING`) and answers with the job under way, or 409.
 * - `join_requests_one_open`: at most one open request to join (waiting for the owners, or approved
 *   and its job not done) per person and team, direct joins included.
 *
 * Rows that already break them (left by such races before this migration) are settled first: the
 * oldest stays, the later ones end as failed duplicates. The types and statuses are written out
 * here, not imported: a migration never changes once shipped.
 */
const PENDING = sql`('waiting', 'active', 'parked', 'delayed')`;
const ONE_PER_TEAM = sql`('TeamDriftApply', 'TeamArchiveRequest')`;
const DUPLICATE = 'A duplicate of an earlier request under way; that one goes on.';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE jobs SET status = 'failed', queued = 0, lease_owner = NULL, lease_until = NULL,
      failed_reason = ${DUPLICATE}, completed_at = updated_at
    WHERE type IN ${ONE_PER_TEAM} AND status IN ${PENDING} AND team_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM jobs AS earlier
        WHERE earlier.team_id = jobs.team_id AND earlier.type = jobs.type
          AND earlier.status IN ${PENDING}
          AND (earlier.created_at < jobs.created_at
            OR (earlier.created_at = jobs.created_at AND earlier.id < jobs.id)))`.execute(db);
  await sql`CREATE UNIQUE INDEX jobs_one_pending_per_team ON jobs (team_id, type)
    WHERE type IN ${ONE_PER_TEAM} AND status IN ${PENDING}`.execute(db);

  await sql`UPDATE join_requests SET status = 'failed', failed_reason = ${DUPLICATE}
    WHERE status IN ('pending', 'approved')
      AND EXISTS (SELECT 1 FROM join_requests AS earlier
        WHERE earlier.team_id = join_requests.team_id
          AND earlier.requester_id = join_requests.requester_id
          AND earlier.status IN ('pending', 'approved')
          AND (earlier.created_at < join_requests.created_at
            OR (earlier.created_at = join_requests.created_at AND earlier.id < join_requests.id)))`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX join_requests_one_open ON join_requests (team_id, requester_id)
    WHERE status IN ('pending', 'approved')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('join_requests_one_open').execute();
  await db.schema.dropIndex('jobs_one_pending_per_team').execute();
}
