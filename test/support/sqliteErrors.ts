import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** What better-sqlite3's native addon offers to set the class of the errors it throws. */
interface SqliteAddon {
  setErrorConstructor(constructor: new (message: string, code: string) => Error): void;
}

/**
 * Makes the errors SQLite throws in this test file instances of this file's `Error`.
 *
 * better-sqlite3's native addon is loaded once per process, and the first copy of the library to
 * load it hands it that copy's `SqliteError` class, once (WiseLibs/better-sqlite3#162). Jest runs each
 * test file in a realm of its own, with its own `Error`, so in every later file of the same worker
 * SQLite's errors are not `instanceof Error`: `expect(...).rejects.toThrow()` reports that nothing
 * was thrown, and the product's `instanceof Error` checks take paths they never take in production.
 * The addon keeps the class it was given last, so each test file gives it its own first.
 */
export function adoptSqliteErrors(): void {
  sqliteAddon().setErrorConstructor(SQLite.SqliteError);
}

/** better-sqlite3's native addon, loaded exactly as the library loads it (Node loads it once). */
export function sqliteAddon(): SqliteAddon {
  const library = path.dirname(require.resolve('better-sqlite3/package.json'));
  const bindings = createRequire(path.join(library, 'package.json'))('bindings') as (options: {
    bindings: string;
    module_root: string;
  }) => SqliteAddon;
  return bindings({ bindings: 'better_sqlite3.node', module_root: library });
}
