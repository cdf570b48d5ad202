import type { Kysely } from 'kysely';

/**
 * Webhooks and their delivery log. A hook keeps its secret (needed to sign every delivery; never
 * returned by the API) and a count of consecutive failed deliveries, which turns it inactive at a
 * threshold. Each delivery is a job of the durable queue; `hook_deliveries` is its log, keyed by
 * the delivery id (the job's id), newest first per hook.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hooks')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('content_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('hook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('hook_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('response_ms', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('completed_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('hook_deliveries_hook_date')
    .on('hook_deliveries')
    .columns(['hook_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hook_deliveries').ifExists().execute();
  await db.schema.dropTable('hooks').ifExists().execute();
}
