import type { Kysely } from 'kysely';

/**
 * The bot's state: dialog and conversation state and conversation references, as botbuilder's
 * `Storage` reads and writes them (JSON by key, with an eTag for optimistic concurrency).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bot_state')
    .addColumn('key', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('etag', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bot_state').ifExists().execute();
}
