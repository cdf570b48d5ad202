import type { Kysely } from 'kysely';

/**
 * The tenant-wide Microsoft Graph budget (`docs/graph-budget.md`): one row per token bucket, its
 * theoretical arrival time (GCRA) in milliseconds since the epoch. Rows are few (the request
 * classes, plus the teams and channels being provisioned) and those in the past are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('graph_budget')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('tat', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('graph_budget').ifExists().execute();
}
