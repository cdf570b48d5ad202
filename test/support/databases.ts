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
import { type DatabaseOptions, migrate, openStore, type Store } from '../../src/store/database';

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
 * Creates a database of `kind` for one test file: a temp SQLite file, or a fresh PostgreSQL database.
 * Unless `empty`, it is a copy of a template migrated once per set of migrations (an SQLite file
 * copied, PostgreSQL's `CREATE DATABASE … TEMPLATE`), so a suite's own `migrate` finds nothing to do.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-test-'));
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'steward.db');
    if (!options.empty) copyFileSync(await sqliteTemplate(), file);
    return {
      kind,
      url: `sqlite:${file}`,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!adminUrl) throw new Error('STEWARD_TEST_DATABASE_URL is not set');
  const name = `steward_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : await postgresTemplate();
  await admin((client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  const url = postgresUrl(name);
  return {
    kind,
    url,
    dataDir,
    drop: async () => {
      await dropDatabase(name);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function postgresUrl(name: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A name for the migrations as they are: their files' contents hashed. */
function migrationsKey(): string {
  const folder = path.resolve(__dirname, '..', '..', 'src', 'store', 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort())
    hash.update(file).update(readFileSync(path.join(folder, file)));
  return hash.digest('hex').slice(0, 16);
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
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
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
