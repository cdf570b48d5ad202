import type { Kysely } from 'kysely';
import type { MetaChanges } from './metaChanges';
import type { Database } from '../schema';

/**
 * The longest a value is kept without a change being announced: a listening connection that died
 * without a word (a network that drops packets) cannot keep a stale value for longer.
 */
const MAX_KEEP_MS = 30_000;

/**
 * Values of `steward_meta` (the queue's pause switch, …) as this process last read them, kept until
 * the table changes. Reading the queue's state is part of every answer that shows a job, so this
 * saves a statement per request. How a change is learnt (`metaChanges.ts`): on PostgreSQL, a
 * trigger notifies every listening process when a write commits; on SQLite, the connection's
 * `data_version` moves when another process commits, and a temporary trigger counts this process's
 * own writes. While a process cannot follow changes (its listening connection is down) it reads
 * the table every time, as before; and it reads it again at least every MAX_KEEP_MS.
 */
export class StewardMeta {
  private readonly values = new Map<string, { value: string | undefined; version: string; at: number }>();
  /** Moved by `forget()`: a write by this process is seen by its next read, notification or not. */
  private epoch = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: MetaChanges,
  ) {}

  /** The value of `key`, from memory while nothing has changed since it was read. */
  async get(key: string): Promise<string | undefined> {
    const before = this.version();
    const kept = before === undefined ? undefined : this.values.get(key);
    if (kept && kept.version === before && Date.now() - kept.at < MAX_KEEP_MS) return kept.value;
    const row = await this.db
      .selectFrom('steward_meta')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    // A change announced while the row was being read may or may not be in it: keep nothing then.
    if (before !== undefined && this.version() === before)
      this.values.set(key, { value: row?.value, version: before, at: Date.now() });
    return row?.value;
  }

  /** Drops every kept value: this process has just written the table. */
  forget(): void {
    this.epoch += 1;
    this.values.clear();
  }

  close(): Promise<void> {
    return this.changes.close();
  }

  private version(): string | undefined {
    const changes = this.changes.version();
    return changes === undefined ? undefined : `${changes}/${this.epoch}`;
  }
}

const attached = new WeakMap<object, StewardMeta>();

/** Makes `meta` the reader of `steward_meta` for queries through `db` (done by `openStore`). */
export function attachStewardMeta(db: Kysely<Database>, meta: StewardMeta): void {
  attached.set(db, meta);
}

/**
 * The kept reader of the store `db` belongs to; undefined for a transaction or a connection opened
 * elsewhere, which read the table themselves.
 */
export function stewardMetaOf(db: Kysely<Database>): StewardMeta | undefined {
  return attached.get(db);
}
