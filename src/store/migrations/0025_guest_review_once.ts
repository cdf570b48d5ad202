import type { Kysely } from 'kysely';

/**
 * A guest review decided by the database: `guest_review_key` names the team's last review (its day
 * and the guests it removed, hashed) and `guest_review` keeps what it answered. The review's write
 * changes the row only when the key differs, so of identical reviews at once, in any processes,
 * one is recorded and the others answer with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('team_lifecycle').addColumn('guest_review_key', 'varchar(64)').execute();
  await db.schema.alterTable('team_lifecycle').addColumn('guest_review', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_lifecycle').dropColumn('guest_review').execute();
  await db.schema.alterTable('team_lifecycle').dropColumn('guest_review_key').execute();
}
