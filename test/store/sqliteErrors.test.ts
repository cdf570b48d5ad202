import vm from 'node:vm';
import SQLite from 'better-sqlite3';
import { adoptSqliteErrors, sqliteAddon } from '../support/sqliteErrors';

/** What SQLite throws when a statement names a table that does not exist. */
function thrownBy(db: SQLite.Database): unknown {
  try {
    db.prepare('select * from nowhere').all();
  } catch (error) {
    return error;
  }
  throw new Error('SQLite threw nothing');
}

test("SQLite's errors are Errors of the test file that meets them, whichever file loaded the addon first", () => {
  const db = new SQLite(':memory:');
  try {
    // What a test file that ran earlier in this worker leaves behind: the classes of another realm.
    const foreign = vm.runInNewContext(`[
      class SqliteError extends Error { constructor(message, code) { super(message); this.code = code; } },
      (...values) => values,
      (array, ...values) => { array.push(...values); },
      (...keys) => (...values) => Object.fromEntries(keys.map((key, i) => [key, values[i]])),
      (value) => ({ value, done: false }),
    ]`) as unknown[];
    sqliteAddon().initialize(...foreign);
    const stray = thrownBy(db);
    expect(stray instanceof Error).toBe(false);
    expect((stray as { message: string }).message).toMatch(/no such table/);
    expect(db.prepare('select 1 as one').raw().get() instanceof Array).toBe(false);

    adoptSqliteErrors();
    const own = thrownBy(db);
    expect(own).toBeInstanceOf(SQLite.SqliteError);
    expect(own).toBeInstanceOf(Error);
    expect(() => db.prepare('select * from nowhere')).toThrow(/no such table/);
    expect(db.prepare('select 1 as one').raw().get()).toBeInstanceOf(Array);
    expect(db.prepare('select 1 as one').get()).toEqual({ one: 1 });
  } finally {
    adoptSqliteErrors();
    db.close();
  }
});
