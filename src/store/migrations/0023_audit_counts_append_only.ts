import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/** The tables that hold the audit trails: the records, their day counts, the refusal counters. */
const AUDIT_TABLES = ['audit_records', 'audit_counts', 'refusal_counts'] as const;

/**
 * The audit trails' day counts (`audit_counts`, migration 0008) get the promise the records have:
 * `@odata.count` adds them up, so a lowered or deleted row would make a trail look shorter than it
 * is. A row may be inserted with a positive count, and an UPDATE may only raise `count` (the append's
 * upsert adds to it); its trail, day and shard are fixed, and DELETE is refused.
 *
 * On PostgreSQL, TRUNCATE fires no row trigger, so it would empty every audit table at once;
 * statement triggers refuse it on all three. SQLite has no TRUNCATE: its `DELETE` without a WHERE
 * clause skips the row triggers only on a table that has none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const fixed = ['trail', 'day', 'shard'].map((column) => `NEW.${column} IS DISTINCT FROM OLD.${column}`);
  const changed = [...fixed, 'NEW.count < OLD.count'].join(' OR ');
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE FUNCTION audit_counts_only_grow() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP = 'DELETE' THEN
             RAISE EXCEPTION 'audit counts only grow';
           ELSIF TG_OP = 'INSERT' THEN
             IF NEW.count < 1 THEN RAISE EXCEPTION 'audit counts only grow'; END IF;
           ELSIF ${changed} THEN
             RAISE EXCEPTION 'audit counts only grow';
           END IF;
           RETURN NEW;
         END $$`,
      )
      .execute(db);
    await sql`CREATE TRIGGER audit_counts_only_grow BEFORE INSERT OR UPDATE OR DELETE ON audit_counts
      FOR EACH ROW EXECUTE FUNCTION audit_counts_only_grow()`.execute(db);
    await sql`CREATE FUNCTION audit_tables_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '% is append-only: TRUNCATE is refused', TG_TABLE_NAME; END $$`.execute(db);
    for (const table of AUDIT_TABLES) {
      await sql
        .raw(
          `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
           FOR EACH STATEMENT EXECUTE FUNCTION audit_tables_no_truncate()`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER audit_counts_no_delete BEFORE DELETE ON audit_counts
       BEGIN SELECT RAISE(ABORT, 'audit counts only grow'); END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER audit_counts_positive BEFORE INSERT ON audit_counts WHEN NEW.count < 1
       BEGIN SELECT RAISE(ABORT, 'audit counts only grow'); END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER audit_counts_only_grow BEFORE UPDATE ON audit_counts
       WHEN ${changed.replaceAll('IS DISTINCT FROM', 'IS NOT')}
       BEGIN SELECT RAISE(ABORT, 'audit counts only grow'); END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of AUDIT_TABLES)
      await sql.raw(`DROP TRIGGER IF EXISTS ${table}_no_truncate ON ${table}`).execute(db);
    await sql`DROP FUNCTION IF EXISTS audit_tables_no_truncate()`.execute(db);
    await sql`DROP TRIGGER IF EXISTS audit_counts_only_grow ON audit_counts`.execute(db);
    await sql`DROP FUNCTION IF EXISTS audit_counts_only_grow()`.execute(db);
    return;
  }
  for (const trigger of ['audit_counts_no_delete', 'audit_counts_positive', 'audit_counts_only_grow'])
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
}
