import { type Kysely, sql } from 'kysely';
import { isJsonObject, leaves } from '../../domain/metadata';
import { isPostgres } from '../dialect';

/**
 * Indexes metadata for containment queries. PostgreSQL: `document` becomes jsonb with a GIN
 * (`jsonb_path_ops`) index for `@>`. SQLite: a side table of every leaf (path, JSON-encoded scalar)
 * of every document, which the repository keeps in step with each write; existing documents are
 * indexed here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`ALTER TABLE team_metadata ALTER COLUMN document TYPE jsonb USING document::jsonb`.execute(db);
    await sql`CREATE INDEX team_metadata_document_gin ON team_metadata USING gin (document jsonb_path_ops)`.execute(
      db,
    );
    return;
  }
  await db.schema
    .createTable('team_metadata_values')
    .addColumn('team_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('namespace', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('team_metadata_values_lookup')
    .on('team_metadata_values')
    .columns(['namespace', 'path', 'value', 'team_id'])
    .execute();
  await db.schema
    .createIndex('team_metadata_values_team')
    .on('team_metadata_values')
    .columns(['team_id', 'namespace'])
    .execute();
  const rows = await sql<{ team_id: string; namespace: string; document: string }>`
    SELECT team_id, namespace, document FROM team_metadata`.execute(db);
  for (const row of rows.rows) {
    const document: unknown = JSON.parse(row.document);
    if (!isJsonObject(document)) continue;
    for (const leaf of leaves(document)) {
      await sql`INSERT INTO team_metadata_values (team_id, namespace, path, value)
        VALUES (${row.team_id}, ${row.namespace}, ${leaf.path}, ${leaf.value})`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP INDEX IF EXISTS team_metadata_document_gin`.execute(db);
    await sql`ALTER TABLE team_metadata ALTER COLUMN document TYPE text USING document::text`.execute(db);
    return;
  }
  await db.schema.dropTable('team_metadata_values').ifExists().execute();
}
