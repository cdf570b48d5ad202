import type { Kysely } from 'kysely';

/**
 * Claims that ask the Graph budget first (`docs/graph-budget.md`): a job names the budget bucket its
 * next call waits for (`jobs.budget_key`: a new provisioning's `class:createTeam`, a job parked
 * because a bucket was spent), and each bucket's row keeps the spacing of its turns
 * (`graph_budget.interval_ms`), so a claim takes no more of a bucket's jobs than it has turns soon.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('budget_key', 'varchar(300)').execute();
  await db.schema
    .alterTable('graph_budget')
    .addColumn('interval_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('graph_budget').dropColumn('interval_ms').execute();
  await db.schema.alterTable('jobs').dropColumn('budget_key').execute();
}
