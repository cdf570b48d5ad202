import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * `steward_meta` changes announced on PostgreSQL: a trigger sends `NOTIFY steward_meta_changed`
 * when the writing transaction commits, whoever wrote (a Steward process, `npm run queue`, an
 * operator's SQL), so every process may keep what it read of the table until then
 * (`store/stewardMeta.ts`). SQLite needs nothing in the file: each connection follows changes itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    CREATE OR REPLACE FUNCTION steward_meta_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('steward_meta_changed', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER steward_meta_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON steward_meta
    FOR EACH STATEMENT EXECUTE FUNCTION steward_meta_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TRIGGER IF EXISTS steward_meta_changed ON steward_meta`.execute(db);
  await sql`DROP FUNCTION IF EXISTS steward_meta_changed()`.execute(db);
}
