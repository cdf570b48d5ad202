import type { Kysely } from 'kysely';

/**
 * Staged approval policies: each stage of a request is an approval row of its own (its index and
 * name, `any` or `all`, the approvers' votes for `all`, and when it was reminded or escalated), and
 * people in the embedded directory have a manager.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('approvals')
    .addColumn('stage_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('approvals').addColumn('stage_name', 'varchar(128)').execute();
  await db.schema
    .alterTable('approvals')
    .addColumn('decision', 'varchar(8)', (c) => c.notNull().defaultTo('any'))
    .execute();
  await db.schema
    .alterTable('approvals')
    .addColumn('votes', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('approvals').addColumn('reminded_at', 'varchar(32)').execute();
  await db.schema.alterTable('approvals').addColumn('escalated_at', 'varchar(32)').execute();
  await db.schema.alterTable('directory_users').addColumn('manager_id', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('directory_users').dropColumn('manager_id').execute();
  for (const column of ['escalated_at', 'reminded_at', 'votes', 'decision', 'stage_name', 'stage_index']) {
    await db.schema.alterTable('approvals').dropColumn(column).execute();
  }
}
