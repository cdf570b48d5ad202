import { type Kysely, PostgresAdapter } from 'kysely';

/** True when `db` talks to PostgreSQL (migrations and a few queries differ by dialect). */
export function isPostgres(db: Kysely<unknown> | Kysely<never>): boolean {
  return (db as Kysely<unknown>).getExecutor().adapter instanceof PostgresAdapter;
}
