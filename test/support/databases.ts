import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Migrator } from 'kysely';
import { type DatabaseOptions, migrate, openStore, type Store } from '../../src/store/database';
import { migrationProvider } from '../../src/store/migrations';

export type DatabaseKind = 'sqlite' | 'postgres';

/** A database made for one test file: its `STEWARD_DATABASE_URL`, and how to remove it. */
export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  /** A folder for this test's data dir (secret file, SQLite file). */
  dataDir: string;
  drop(): Promise<void>;
}

const adminUrl = process.env.STEWARD_TEST_DATABASE_URL;

/** The databases integration suites run on: SQLite always, PostgreSQL when configured. */
export const databaseKinds: DatabaseKind[] = adminUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** The store options (`openStore`) for a test database. */
export function storeOptionsOf(db: TestDatabase): DatabaseOptions {
  return db.kind === 'postgres'
    ? { kind: 'postgres', url: db.url }
    : { kind: 'sqlite', file: db.url.slice('sqlite:'.length) };
}

/** What a test database starts with: Steward's schema (the default), or nothing (migration tests). */
export interface TestDatabaseOptions {
  empty?: boolean;
}

/**
 * Creates a database of `kind` for one test file: a temp SQLite file, or a PostgreSQL database.
 * Unless `empty`, it holds Steward's schema as a copy of a template migrated once per set of
 * migrations (an SQLite file copied; on PostgreSQL a pooled database emptied, `pooledDatabase`), so
 * a suite's own `migrate` finds nothing to do.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-test-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'steward.db');
    if (!options.empty) copyFileSync(await sqliteTemplate(), file);
    return { kind, url: `sqlite:${file}`, dataDir, drop: async () => removeDataDir() };
  }
  if (!adminUrl) throw new Error('STEWARD_TEST_DATABASE_URL is not set');
  if (!options.empty) {
    const pooled = await pooledDatabase();
    return {
      kind,
      url: postgresUrl(pooled.name),
      dataDir,
      drop: async () => {
        await pooled.release();
        removeDataDir();
      },
    };
  }
  const name = `steward_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  return {
    kind,
    url: postgresUrl(name),
    dataDir,
    drop: async () => {
      await dropDatabase(name);
      removeDataDir();
    },
  };
}

function postgresUrl(name: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

let migrations: string | undefined;

/** A name for the migrations as they are: their files' contents hashed (once per file's realm). */
function migrationsKey(): string {
  if (migrations) return migrations;
  const folder = path.resolve(__dirname, '..', '..', 'src', 'store', 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort())
    hash.update(file).update(readFileSync(path.join(folder, file)));
  migrations = hash.digest('hex').slice(0, 16);
  return migrations;
}

let sqliteTemplateFile: Promise<string> | undefined;

/** The migrated SQLite template of these migrations, made once (by whichever process gets there first). */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const file = path.join(os.tmpdir(), `steward-test-template-${migrationsKey()}.db`);
    if (existsSync(file)) return file;
    const building = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const store = openStore({ kind: 'sqlite', file: building });
    try {
      await migrate(store.db);
    } finally {
      await store.close();
    }
    renameSync(building, file); // atomic: a reader sees the whole template or none
    return file;
  })();
  return sqliteTemplateFile;
}

let postgresTemplateName: Promise<string> | undefined;

/**
 * The migrated PostgreSQL template database of these migrations, made once across every Jest
 * process (an advisory lock orders them). Nobody connects to it after it is made, as `CREATE
 * DATABASE … TEMPLATE` requires.
 */
function postgresTemplate(): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `steward_template_${migrationsKey()}`;
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `steward_building_${randomBytes(6).toString('hex')}`;
        await client.query(`create database ${building}`);
        const store = openStore({ kind: 'postgres', url: postgresUrl(building) });
        try {
          await migrate(store.db);
        } finally {
          await store.close();
        }
        await client.query(`alter database ${building} rename to ${name}`);
      }
      return name;
    } finally {
      await client.end(); // ends the session, and with it the advisory lock
    }
  })();
  return postgresTemplateName;
}

/** A pooled PostgreSQL database, this test file's until `release`. */
interface PooledDatabase {
  name: string;
  release(): Promise<void>;
}

/**
 * A PostgreSQL database with Steward's schema and no rows, for one test file. Copying the template
 * costs PostgreSQL about 0.25 s of CPU a database (`CREATE DATABASE` writes every page of it, system
 * catalogs included, then `DROP DATABASE`), and the suites use a hundred; emptying a database a
 * finished file used costs about 0.03 s. So the databases are kept, numbered slots of the current
 * migrations (`steward_pool_<migrations>_<n>`), and a file takes the first slot whose advisory
 * lock it wins, held by its own session until `release` (or until the session ends with its
 * process). A slot is emptied when it is taken (`emptyDatabase`), or made again from the template
 * when its previous user changed its schema.
 */
async function pooledDatabase(): Promise<PooledDatabase> {
  const template = await postgresTemplate();
  const prefix = `steward_pool_${migrationsKey()}_`;
  const holder = new Client({ connectionString: adminUrl });
  await holder.connect();
  try {
    for (let slot = 0; ; slot++) {
      const won = await holder.query<{ held: boolean }>(
        'select pg_try_advisory_lock(hashtext($1), $2) as held',
        [prefix, slot],
      );
      if (!won.rows[0]!.held) continue;
      const name = `${prefix}${slot}`;
      const found = await holder.query<{ schema: string | null }>(
        "select shobj_description(oid, 'pg_database') as schema from pg_database where datname = $1",
        [name],
      );
      const expected = found.rows[0]?.schema;
      if (expected && (await emptyDatabase(name, expected))) return { name, release: () => holder.end() };
      if (found.rowCount) await dropDatabase(name, holder);
      else await dropOtherPools(holder, prefix);
      await holder.query(`create database ${name} template ${template}`);
      // A fresh copy's schema, kept with the slot for its next user's `emptyDatabase` to compare.
      const fresh = new Client({ connectionString: postgresUrl(name) });
      await fresh.connect();
      try {
        const { rows } = await fresh.query<{ schema: string }>(SCHEMA);
        await holder.query(`comment on database ${name} is '${rows[0]!.schema}'`);
      } finally {
        await fresh.end();
      }
      return { name, release: () => holder.end() };
    }
  } catch (error) {
    await holder.end();
    throw error;
  }
}

/**
 * A digest of a database's schema: the tables' columns, defaults, indexes, constraints, triggers,
 * functions and sequences, and the migrations recorded as applied.
 */
const SCHEMA = `select md5(string_agg(part, ',' order by part)) as schema from (
  select c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' ||
      a.attnotnull || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') as part
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where c.relnamespace = 'public'::regnamespace
  union all select pg_get_indexdef(i.indexrelid) from pg_index i
    join pg_class c on c.oid = i.indrelid where c.relnamespace = 'public'::regnamespace
  union all select conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
    where connamespace = 'public'::regnamespace
  union all select t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
  union all select proname from pg_proc where pronamespace = 'public'::regnamespace
  union all select 'migration ' || name from kysely_migration
) parts`;

/** The tables that hold the migrations' own records, kept when a database is emptied. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Brings the pooled database `name` back to a fresh copy's state when its schema is still
 * `expected`: its other sessions ended, every row deleted (a table that references another first),
 * its sequences restarted and the migration lock open. False, and nothing changed, when the schema
 * differs.
 */
export async function emptyDatabase(name: string, expected: string): Promise<boolean> {
  const client = new Client({ connectionString: postgresUrl(name) });
  await client.connect();
  try {
    await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    const { rows } = await client.query<{ schema: string }>(SCHEMA);
    if (rows[0]!.schema !== expected) return false;
    // A table a row trigger keeps rows in (the audit trail, its day counts, the refusal counts:
    // append-only) is emptied by TRUNCATE when it holds rows; the others by DELETE, cheaper on a
    // table of a few rows. Row triggers do not see TRUNCATE, but these tables' statement triggers
    // refuse it on PostgreSQL, so their triggers are off for that statement: disabling them takes
    // the table's owner, which the test role is (it created the database), not a superuser
    // (`session_replication_role`). In the one transaction of the statements below, so no other
    // session ever sees them off.
    const tables = await client.query<{ name: string; referenced: string[]; guarded: boolean }>(
      `select c.relname as name,
              array(select distinct f.confrelid::regclass::text from pg_constraint f
                     where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as referenced,
              exists(select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal
                      and t.tgtype & 1 = 1 and t.tgtype & 8 = 8) as guarded
         from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`,
    );
    const guarded = new Set(tables.rows.filter((table) => table.guarded).map((table) => table.name));
    const statements = deletionOrder(tables.rows)
      .filter((table) => !MIGRATION_TABLES.includes(table))
      .map((table) =>
        guarded.has(table)
          ? `do $$ begin if exists (select 1 from "${table}") then
               alter table "${table}" disable trigger user; truncate "${table}";
               alter table "${table}" enable trigger user; end if; end $$`
          : `delete from "${table}"`,
      );
    statements.push(
      `select setval(s.seqrelid, s.seqstart, false) from pg_sequence s
         join pg_class c on c.oid = s.seqrelid where c.relnamespace = 'public'::regnamespace`,
      'update kysely_migration_lock set is_locked = 0',
    );
    // One simple query: one transaction, one round trip.
    await client.query(statements.join(';\n'));
    return true;
  } finally {
    await client.end();
  }
}

/** `tables` ordered so that each comes before the tables it references. */
function deletionOrder(tables: ReadonlyArray<{ name: string; referenced: string[] }>): string[] {
  const ordered: string[] = [];
  const references = new Map(tables.map((table) => [table.name, table.referenced]));
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    // Those that reference `name` first.
    for (const [other, referenced] of references)
      if (referenced.includes(name)) visit(other, new Set([...path, name]));
    ordered.push(name);
  };
  for (const table of references.keys()) visit(table, new Set());
  return ordered;
}

/**
 * Drops the pooled databases of other migrations (this checkout's earlier ones), each only while
 * nobody holds its slot.
 */
async function dropOtherPools(holder: Client, prefix: string): Promise<void> {
  const { rows } = await holder.query<{ name: string }>(
    "select datname as name from pg_database where datname like 'steward\\_pool\\_%' and datname not like $1",
    [`${prefix}%`],
  );
  for (const { name } of rows) {
    const [, other, slot] = /^(steward_pool_[0-9a-f]+_)(\d+)$/.exec(name) ?? [];
    if (!other) continue;
    const won = await holder.query<{ held: boolean }>(
      'select pg_try_advisory_lock(hashtext($1), $2) as held',
      [other, Number(slot)],
    );
    if (!won.rows[0]!.held) continue;
    try {
      await dropDatabase(name, holder);
    } finally {
      await holder.query('select pg_advisory_unlock(hashtext($1), $2)', [other, Number(slot)]);
    }
  }
}

async function admin(work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops a test database, retrying while PostgreSQL refuses to end one of its backends. `with
 * (force)` also ends an autovacuum worker that happens to be in the database, and a user without
 * `pg_signal_backend` may not signal that worker (SQLSTATE 42501); it leaves within moments.
 */
async function dropDatabase(name: string, client?: Client): Promise<void> {
  const drop = (on: Client) => on.query(`drop database if exists ${name} with (force)`);
  for (let attempt = 1; ; attempt++) {
    try {
      await (client ? drop(client) : admin(drop));
      return;
    } catch (error) {
      const refused = (error as { code?: string }).code === '42501';
      if (!refused || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * A fresh database of `kind`, migrated, opened for the suite that calls this (in its `describe`):
 * made before its tests, closed and dropped after them. `store()` is the open store.
 */
export function suiteStore(kind: DatabaseKind): { store(): Store } {
  let db: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    store = openStore(storeOptionsOf(db));
    await migrate(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });
  return {
    store: () => {
      if (!store) throw new Error('the suite store is opened in beforeAll');
      return store;
    },
  };
}

/**
 * Two stores on one `kind` database, as two processes have, for the enclosing `describe`: opened
 * (and the database migrated) in `beforeAll`, closed with the database dropped in `afterAll`.
 */
export function suiteStorePair(kind: DatabaseKind): {
  stores(): [Store, Store];
  /** What `make` makes over each of the two stores (a repository each, as two processes have). */
  each<R>(make: (store: Store) => R): [R, R];
} {
  let db: TestDatabase | undefined;
  let stores: [Store, Store] | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    stores = [openStore(storeOptionsOf(db)), openStore(storeOptionsOf(db))];
    await migrate(stores[0].db);
  });
  afterAll(async () => {
    for (const store of stores ?? []) await store.close();
    await db?.drop();
  });
  const opened = (): [Store, Store] => {
    if (!stores) throw new Error('the suite stores are opened in beforeAll');
    return stores;
  };
  return {
    stores: opened,
    each: (make) => {
      const [one, two] = opened();
      return [make(one), make(two)];
    },
  };
}

/**
 * An empty database of `kind` for each test of the enclosing `describe` (made before it, dropped
 * after it), opened as a store; `before(name)` migrates it up to migration `name` only, as a store
 * that has lived with an older Steward, for a test of the migrations after it.
 */
export function eachEmptyStore(kind: DatabaseKind): { store(): Store; before(name: string): Promise<Store> } {
  let db: TestDatabase | undefined;
  let store: Store | undefined;
  beforeEach(async () => {
    db = await createTestDatabase(kind, { empty: true });
    store = openStore(storeOptionsOf(db));
  });
  afterEach(async () => {
    await store?.close();
    await db?.drop();
  });
  const opened = () => {
    if (!store) throw new Error('the store is opened in beforeEach');
    return store;
  };
  return {
    store: opened,
    before: async (name) => {
      const { error } = await new Migrator({ db: opened().db, provider: migrationProvider }).migrateTo(name);
      if (error) throw error;
      return opened();
    },
  };
}
