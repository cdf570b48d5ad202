import type { Kysely } from 'kysely';

/**
 * The day governance managers were told that nobody stepped up as owner of a team whose members
 * were asked (`ownership.askMembersDays` later), so it happens once per spell without owners.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_lifecycle').addColumn('ownerless_escalated_on', 'varchar(10)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_lifecycle').dropColumn('ownerless_escalated_on').execute();
}
