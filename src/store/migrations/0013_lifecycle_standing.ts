import type { Kysely } from 'kysely';

/**
 * Lifecycle governance, second part. `ownerless_escalated_on`: the day governance managers were
 * told that nobody stepped up as owner of a team whose members were asked, so it happens once per
 * spell. The team's standing at its last evaluation (name, archived, expiry, inactivity and guest
 * review dates): what the lifecycle report counts, by indexed ranges, without asking the platform;
 * and an index for the report's renewals per month, read from the audit trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('team_lifecycle').addColumn('ownerless_escalated_on', 'varchar(10)').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('display_name', 'varchar(256)').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('is_archived', 'integer').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('expires_on', 'varchar(10)').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('inactive_on', 'varchar(10)').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('guest_review_due_on', 'varchar(10)').execute();
  await db.schema
    .createIndex('team_lifecycle_expires_on')
    .on('team_lifecycle')
    .column('expires_on')
    .execute();
  await db.schema
    .createIndex('team_lifecycle_inactive_on')
    .on('team_lifecycle')
    .column('inactive_on')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_records_trail_action_date').ifExists().execute();
  await db.schema.dropIndex('team_lifecycle_inactive_on').ifExists().execute();
  await db.schema.dropIndex('team_lifecycle_expires_on').ifExists().execute();
  for (const column of [
    'guest_review_due_on',
    'inactive_on',
    'expires_on',
    'is_archived',
    'display_name',
    'ownerless_escalated_on',
  ])
    await db.schema.alterTable('team_lifecycle').dropColumn(column).execute();
}
