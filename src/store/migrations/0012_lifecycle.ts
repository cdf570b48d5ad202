import type { Kysely } from 'kysely';

/**
 * Lifecycle governance: one row per team the evaluator has seen (renewals, notices sent, actions
 * taken, last activity from the platform's report), the embedded tenant's simulated activity, and
 * the index by which a team's provisioning job (hence its template) is found.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_lifecycle')
    .addColumn('team_id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('renewals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('renewed_on', 'varchar(10)')
    .addColumn('renewed_by', 'varchar(64)')
    .addColumn('notices_sent', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expired_for', 'varchar(10)')
    .addColumn('inactive_for', 'varchar(10)')
    .addColumn('ownerless_since', 'varchar(10)')
    .addColumn('guest_reviewed_on', 'varchar(10)')
    .addColumn('guest_review_due_for', 'varchar(10)')
    .addColumn('last_activity_on', 'varchar(10)')
    .addColumn('evaluated_on', 'varchar(10)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('platform_teams').addColumn('last_activity_at', 'varchar(32)').execute();
  await db.schema.createIndex('jobs_team_id').on('jobs').column('team_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_team_id').ifExists().execute();
  await db.schema.alterTable('platform_teams').dropColumn('last_activity_at').execute();
  await db.schema.dropTable('team_lifecycle').ifExists().execute();
}
