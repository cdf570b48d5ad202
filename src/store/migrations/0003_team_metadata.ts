import type { Kysely } from 'kysely';

/** Per-team metadata documents by namespace (provisioning writes the request's metadata here). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_metadata')
    .addColumn('team_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('namespace', 'varchar(64)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_metadata_pk', ['team_id', 'namespace'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_metadata').ifExists().execute();
}
