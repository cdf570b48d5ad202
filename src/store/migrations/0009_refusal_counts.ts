import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Refused calls (401, 403), counted: one row per tenant, source, status, actor, reason and UTC
 * minute, whose `count` every API process adds to with one upsert per refusal. The security trail
 * reads these rows as its records (see `AuditRepository`), so a flood from one source is one record
 * per reason and minute with the exact count, however many processes share the database.
 *
 * The audit table's promise is kept here too: triggers refuse DELETE, and an UPDATE may only raise
 * `count` and move `last_at` forward; every other column is fixed once the row is written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('refusal_counts')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('minute', 'varchar(32)', (c) => c.notNull())
    .addColumn('source', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reason', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('request_id', 'varchar(64)')
    .addColumn('details', 'text', (c) => c.notNull())
    .addUniqueConstraint('refusal_counts_key', [
      'tenant_id',
      'minute',
      'source',
      'status',
      'actor_id',
      'reason',
    ])
    .execute();
  await db.schema
    .createIndex('refusal_counts_date')
    .on('refusal_counts')
    .columns(['created_at', 'seq'])
    .execute();
  const fixed = ['id', 'tenant_id', 'minute', 'source', 'status', 'actor_id', 'reason', 'created_at']
    .concat(['actor', 'action', 'target', 'request_id', 'details'])
    .map((column) => `NEW.${column} IS DISTINCT FROM OLD.${column}`);
  const changed = [...fixed, 'NEW.count < OLD.count', 'NEW.last_at < OLD.last_at'].join(' OR ');
  if (pg) {
    await sql
      .raw(
        `CREATE FUNCTION refusal_counts_only_count() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP = 'DELETE' OR ${changed} THEN
             RAISE EXCEPTION 'refusal counts only grow';
           END IF;
           RETURN NEW;
         END $$`,
      )
      .execute(db);
    await sql`CREATE TRIGGER refusal_counts_only_count BEFORE UPDATE OR DELETE ON refusal_counts
      FOR EACH ROW EXECUTE FUNCTION refusal_counts_only_count()`.execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER refusal_counts_no_delete BEFORE DELETE ON refusal_counts
       BEGIN SELECT RAISE(ABORT, 'refusal counts only grow'); END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER refusal_counts_only_count BEFORE UPDATE ON refusal_counts
       WHEN ${changed.replaceAll('IS DISTINCT FROM', 'IS NOT')}
       BEGIN SELECT RAISE(ABORT, 'refusal counts only grow'); END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refusal_counts').ifExists().execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS refusal_counts_only_count()`.execute(db);
}
