import SQLite from 'better-sqlite3';
import { Client } from 'pg';

/** The text of every statement sent to either database while recording, in order. */
export interface StatementLog {
  readonly statements: string[];
  /** Runs `work` and resolves with the statements it sent (only those). */
  during(work: () => Promise<unknown>): Promise<string[]>;
  /** Puts the drivers back as they were (call in `afterAll`). */
  restore(): void;
}

type Method = (...args: unknown[]) => unknown;

/**
 * Records the statements of node-postgres clients (`Client.prototype.query`: pools hand out the same
 * class) and of better-sqlite3 statements (their `run`, `get`, `all` and `iterate`). The SQLite
 * statement class is the native addon's, shared by every test file of a worker: `restore` must run.
 */
export function recordStatements(): StatementLog {
  const statements: string[] = [];
  let recording = false;
  const restores: Array<() => void> = [];
  const wrap = (
    target: Record<string, unknown>,
    name: string,
    textOf: (self: unknown, args: unknown[]) => string,
  ) => {
    const original = target[name] as Method;
    target[name] = function recorded(this: unknown, ...args: unknown[]) {
      if (recording) statements.push(textOf(this, args).replace(/\s+/g, ' ').trim());
      return original.apply(this, args);
    };
    restores.push(() => (target[name] = original));
  };
  const pgText = (_self: unknown, args: unknown[]) =>
    typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string } | undefined)?.text ?? '');
  wrap(Client.prototype as unknown as Record<string, unknown>, 'query', pgText);
  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const name of ['run', 'get', 'all', 'iterate'])
    wrap(statementPrototype, name, (self) => (self as { source: string }).source);
  return {
    statements,
    async during(work) {
      const from = statements.length;
      recording = true;
      try {
        await work();
      } finally {
        recording = false;
      }
      return statements.slice(from);
    },
    restore: () => restores.splice(0).forEach((undo) => undo()),
  };
}
