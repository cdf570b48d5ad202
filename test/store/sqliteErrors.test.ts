import SQLite from 'better-sqlite3';
import { adoptSqliteErrors } from '../support/sqliteErrors';

/** What SQLite throws when a statement names a table that does not exist. */
function thrownBy(db: SQLite.Database): unknown {
  try {
    db.prepare('select * from nowhere').all();
  } catch (error) {
    return error;
  }
  throw new Error('SQLite threw nothing');
}

test("SQLite's errors are those of the test file that meets them, whichever copy of the library opened a database first", () => {
  // What a test file that ran earlier in this worker leaves behind: the addon initialised by
  // another copy of the library, with that copy's SqliteError.
  let other: typeof SQLite | undefined;
  jest.isolateModules(() => {
    other = jest.requireActual<typeof SQLite>('better-sqlite3');
  });
  expect(other!.SqliteError).not.toBe(SQLite.SqliteError);
  adoptSqliteErrors();
  const foreign = new other!(':memory:');
  const db = new SQLite(':memory:');
  try {
    const stray = thrownBy(db);
    expect(stray).toBeInstanceOf(other!.SqliteError);
    expect(stray).not.toBeInstanceOf(SQLite.SqliteError);

    adoptSqliteErrors();
    const mine = new SQLite(':memory:');
    const own = thrownBy(mine);
    expect(own).toBeInstanceOf(SQLite.SqliteError);
    expect(own).toBeInstanceOf(Error);
    expect(() => db.prepare('select * from nowhere')).toThrow(/no such table/);
    mine.close();
  } finally {
    foreign.close();
    db.close();
  }
});
