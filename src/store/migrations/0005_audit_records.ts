import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Audit records: append-only. `seq` orders records written in the same millisecond; the index
 * serves a trail's newest-first pages and date ranges. Triggers refuse UPDATE and DELETE, so not
 * even a bug in Steward can rewrite history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('audit_records')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('trail', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('request_id', 'varchar(64)')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('audit_records_trail_date')
    .on('audit_records')
    .columns(['trail', 'created_at', 'seq'])
    .execute();
  if (pg) {
    await sql`CREATE FUNCTION audit_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit records are append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER audit_records_append_only BEFORE UPDATE OR DELETE ON audit_records
      FOR EACH ROW EXECUTE FUNCTION audit_records_append_only()`.execute(db);
    return;
  }
  for (const verb of ['UPDATE', 'DELETE']) {
    await sql
      .raw(
        `CREATE TRIGGER audit_records_no_${verb.toLowerCase()} BEFORE ${verb} ON audit_records
         BEGIN SELECT RAISE(ABORT, 'audit records are append-only'); END`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_records').ifExists().execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS audit_records_append_only()`.execute(db);
}
