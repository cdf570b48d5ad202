import { PostgresAdapter } from 'kysely';

/** True when `db` (a Kysely instance or transaction) talks to PostgreSQL; a few statements differ by dialect. */
export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
