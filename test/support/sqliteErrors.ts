import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** better-sqlite3's native addon, as far as these helpers use it. */
interface SqliteAddon {
  /** Set by the library once it has handed the addon its classes (`lib/database.js`). */
  isInitialized?: boolean;
  /** The error class, then the array, appender, row and record factories the addon builds results with. */
  initialize(...classAndFactories: unknown[]): void;
}

/**
 * Makes the errors, rows and arrays SQLite gives in this test file those of this file's realm.
 *
 * better-sqlite3's native addon is loaded once per process, and the first copy of the library to
 * open a database hands it that copy's `SqliteError` class and the factories that make rows and
 * arrays, once (it marks the addon `isInitialized`). Jest runs each test file in a realm of its
 * own, with its own `Error` and `Array`, so in every later file of the same worker SQLite's errors
 * are not `instanceof Error`: `expect(...).rejects.toThrow()` reports that nothing was thrown, and
 * the product's `instanceof Error` checks take paths they never take in production. The addon keeps
 * what it was given last, so each test file clears the mark and opens a database first.
 */
export function adoptSqliteErrors(): void {
  const addon = sqliteAddon();
  addon.isInitialized = false;
  new SQLite(':memory:').close();
}

/** better-sqlite3's native addon, found exactly as the library finds it (Node loads it once). */
export function sqliteAddon(): SqliteAddon {
  const library = path.dirname(require.resolve('better-sqlite3/package.json'));
  const binding = createRequire(path.join(library, 'package.json'))('./lib/binding') as {
    getBinding(nativeBinding?: unknown): SqliteAddon;
  };
  return binding.getBinding();
}
