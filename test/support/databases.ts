import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
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

/** Creates an empty database of `kind` (a temp SQLite file, or a fresh PostgreSQL database). */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-test-'));
  if (kind === 'sqlite') {
    return {
      kind,
      url: `sqlite:${path.join(dataDir, 'steward.db')}`,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!adminUrl) throw new Error('STEWARD_TEST_DATABASE_URL is not set');
  const name = `steward_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    dataDir,
    drop: async () => {
      await dropDatabase(name);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
