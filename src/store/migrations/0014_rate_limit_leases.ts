import type { Kysely } from 'kysely';

/**
 * Rate limits leased in blocks (`store/rateLimits.ts`): which process took the last block of a
 * caller's budget (`holder`) and how many calls that block asked for (`last_lease`). A process leases
 * more than one call at a time only while it is the last one that leased for that caller.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('rate_limits').addColumn('holder', 'varchar(64)').execute();
  await db.schema.alterTable('rate_limits').addColumn('last_lease', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_limits').dropColumn('last_lease').execute();
  await db.schema.alterTable('rate_limits').dropColumn('holder').execute();
}
