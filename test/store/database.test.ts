import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { migrate, openStore, SQLITE_PAGE_CACHE } from '../../src/store/database';
import { createTestDatabase } from '../support/databases';

describe('SQLite store', () => {
  test('a transaction takes the write lock when it begins, so another process waits instead of failing later', async () => {
    const db = await createTestDatabase('sqlite');
    const file = db.url.slice('sqlite:'.length);
    const store = openStore({ kind: 'sqlite', file });
    await migrate(store.db);
    const other = new SQLite(file);
    other.pragma('busy_timeout = 0');
    try {
      await store.db.transaction().execute(async (trx) => {
        // Only a read so far: with a deferred BEGIN another connection could still take the write lock.
        await sql`select count(*) from jobs`.execute(trx);
        expect(() => other.exec('begin immediate')).toThrow(/database is locked/);
      });
      other.exec('begin immediate');
      other.exec('rollback');
    } finally {
      other.close();
      await store.close();
      await db.drop();
    }
  });

  test("the connection's page cache is SQLite's own 2 000 KiB, not the 16 000 KiB better-sqlite3 builds in", async () => {
    const db = await createTestDatabase('sqlite');
    const store = openStore({ kind: 'sqlite', file: db.url.slice('sqlite:'.length) });
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
      expect(SQLITE_PAGE_CACHE).toBe(-2000);
      expect(rows).toEqual([{ cache_size: -2000 }]);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
