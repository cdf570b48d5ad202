import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type MigrationResultSet, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Pool } from 'pg';
import { isPostgres } from './dialect';
import { RetryingKysely } from './retryingKysely';
import { PostgresMetaChanges, SqliteMetaChanges } from './meta/metaChanges';
import { migrationProvider, migrations } from './migrations';
import type { Database } from './schema';
import { attachStewardMeta, StewardMeta } from './meta/stewardMeta';

/** How to reach the store: an SQLite file (embedded default) or a PostgreSQL URL. */
export type DatabaseOptions =
  | {
      kind: 'sqlite';
      file: string;
      /** How long a statement waits for another process's write lock (default 5 s). */
      busyTimeoutMs?: number;
    }
  | { kind: 'postgres'; url: string; poolSize?: number };

/** An open store: the typed query builder plus what infrastructure needs of the connection. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: 'sqlite' | 'postgres';
  /** The pg pool, for components that speak to PostgreSQL directly. */
  readonly pgPool?: Pool;
  /**
   * PostgreSQL only: a small pool whose commits do not wait for the disk (`synchronous_commit=off`),
   * for counters that may lose their last milliseconds in a crash (rate limits) and are written on
   * every request.
   */
  readonly counterPool?: Pool;
  /** `steward_meta` as last read, kept until the table changes (`stewardMeta.ts`). */
  readonly meta: StewardMeta;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the database described by `options` (creating the SQLite file and its folder if needed).
 * `log` hears of idle PostgreSQL connections that fail (the server restarted or dropped them).
 */
export function openStore(options: DatabaseOptions, log?: { warn(o: object, m: string): void }): Store {
  if (options.kind === 'postgres') {
    const pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    const idleFailed = (error: Error) => log?.warn({ err: error }, 'an idle PostgreSQL connection failed');
    pool.on('error', idleFailed);
    // Transactions aborted for a deadlock or a serialization failure are run again (retryingKysely.ts).
    const db = new RetryingKysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const counterPool = new Pool({
      connectionString: options.url,
      max: 4,
      options: '-c synchronous_commit=off',
    });
    counterPool.on('error', idleFailed);
    const meta = new StewardMeta(db, new PostgresMetaChanges(options.url, log));
    return storeOf(db, 'postgres', meta, pool, counterPool);
  }
  if (options.file !== ':memory:') mkdirSync(path.dirname(options.file), { recursive: true });
  const sqlite = new SQLite(options.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = ${SQLITE_PAGE_CACHE}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return storeOf(db, 'sqlite', new StewardMeta(db, new SqliteMetaChanges(sqlite)));
}

/**
 * The page cache of the SQLite connection, in KiB when negative: SQLite's own default (2 000 KiB).
 * better-sqlite3 builds SQLite with 16 000 KiB instead, and a pass over a large tenant (a lifecycle
 * evaluation reads every team's rows once) fills all of it with pages it never reads again: 16 MiB
 * of the process's memory for a file the operating system caches anyway. Measured in
 * `bench/lifecycle.js`: no slower over 100 000 teams.
 */
export const SQLITE_PAGE_CACHE = -2000;

/** How long an SQLite statement waits for another process's write lock before it fails (SQLITE_BUSY). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * How long an SQLite migration waits for another process that is migrating the same file: as long
 * as a migration of a large store may take, not the few seconds an ordinary statement waits.
 */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60_000;

const STATEMENT_CACHE_LIMIT = 500;

/**
 * Opens transactions with BEGIN IMMEDIATE (see below), and reuses prepared statements: Kysely prepares every query anew; compiling SQL is most of a simple query's cost on SQLite, so
 * prepared statements are reused by SQL text (queries with variable-length IN lists vary, hence the bound).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        // Kysely opens transactions with a deferred BEGIN. A transaction that reads and then writes
        // while another process has written fails at once with SQLITE_BUSY (the busy timeout does
        // not cover that upgrade), so every transaction takes the write lock up front instead.
        statement = sqlite.prepare(text === 'begin' ? 'begin immediate' : text);
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

function storeOf(
  db: Kysely<Database>,
  dialect: Store['dialect'],
  meta: StewardMeta,
  pgPool?: Pool,
  counterPool?: Pool,
): Store {
  attachStewardMeta(db, meta);
  return {
    db,
    dialect,
    pgPool,
    counterPool,
    meta,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await meta.close();
      await counterPool?.end();
      await db.destroy();
    },
  };
}

/**
 * Applies every pending migration; returns the names applied now. Safe to run from several
 * processes at once: PostgreSQL takes Kysely's advisory lock; on SQLite, whose migration lock is a
 * no-op in Kysely, the whole run happens in one BEGIN IMMEDIATE transaction, so a second process
 * waits (up to `SQLITE_MIGRATION_WAIT_MS`, however loaded the machine) and then finds nothing left
 * to do.
 */
export async function migrate(db: Kysely<Database>): Promise<string[]> {
  if (await upToDate(db)) return [];
  if (isPostgres(db))
    return applied(await new Migrator({ db, provider: migrationProvider }).migrateToLatest());
  await beginWaitingForMigrations(db);
  try {
    const names = applied(
      await new Migrator({ db, provider: migrationProvider, disableTransactions: true }).migrateToLatest(),
    );
    await sql`commit`.execute(db);
    return names;
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
}

/**
 * BEGIN IMMEDIATE on SQLite, waiting up to `SQLITE_MIGRATION_WAIT_MS` for a process that holds the
 * write lock (another migration) instead of the connection's busy timeout, which is then restored.
 */
async function beginWaitingForMigrations(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  await sql.raw(`pragma busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`).execute(db);
  try {
    await sql`begin immediate`.execute(db);
  } finally {
    await sql.raw(`pragma busy_timeout = ${rows[0]?.timeout ?? SQLITE_BUSY_TIMEOUT_MS}`).execute(db);
  }
}

/**
 * Whether the store has exactly the migrations this version knows, read from Kysely's own table.
 * Kysely's migrator first looks for its tables through the database's catalog (every column of
 * every table: 8 ms of PostgreSQL's time, twice), then takes its lock: too much for each start of a
 * process when nothing is to be done. A store that differs in any way (fresh, behind, or migrated
 * by another version) goes to the migrator, which applies what is missing or refuses.
 */
async function upToDate(db: Kysely<Database>): Promise<boolean> {
  const table = isPostgres(db)
    ? sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`
    : sql<{
        found: string | null;
      }>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`;
  if (!(await table.execute(db)).rows[0]?.found) return false;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const done = rows.map((row) => row.name).sort();
  const known = Object.keys(migrations).sort();
  return done.length === known.length && done.every((name, i) => name === known[i]);
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export { isPostgres };
