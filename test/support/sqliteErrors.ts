import { createRequire } from 'node:module';
import path from 'node:path';

/** What better-sqlite3's native addon says about itself (`lib/database.js` sets the flag). */
interface SqliteAddon {
  isInitialized?: boolean;
}

/**
 * Makes the errors SQLite throws in this test file instances of this file's `Error`.
 *
 * better-sqlite3's native addon is loaded once per process, and the first copy of the library to
 * open a database hands it that copy's `SqliteError` class (and row factories), once
 * (WiseLibs/better-sqlite3#162). Jest runs each test file in a realm of its own, with its own
 * `Error`, so in every later file of the same worker SQLite's errors are not `instanceof Error`:
 * `expect(...).rejects.toThrow()` reports that nothing was thrown, and the product's
 * `instanceof Error` checks take paths they never take in production. The library initialises the
 * addon again when its `isInitialized` flag is down, so each test file lowers it first: the file's
 * first database hands the addon this realm's classes.
 */
export function adoptSqliteErrors(): void {
  sqliteAddon().isInitialized = false;
}

/** better-sqlite3's native addon, loaded exactly as the library loads it (Node loads it once). */
export function sqliteAddon(): SqliteAddon {
  const library = path.dirname(require.resolve('better-sqlite3/package.json'));
  // Since better-sqlite3 13 the library finds its addon itself (lib/binding.js), without `bindings`.
  const binding = createRequire(path.join(library, 'package.json'))('./lib/binding.js') as {
    getBinding(nativeBinding?: unknown): SqliteAddon;
  };
  return binding.getBinding();
}
