import type SQLite from 'better-sqlite3';
import { Client } from 'pg';

/** Follows changes to `steward_meta` made by any process, for `StewardMeta`. */
export interface MetaChanges {
  /**
   * A value that differs whenever the table may have changed since it was last taken; undefined
   * while changes cannot be followed (then nothing may be kept).
   */
  version(): string | undefined;
  close(): Promise<void>;
}

/** The channel the trigger of migration 0015 notifies when a write to `steward_meta` commits. */
const CHANNEL = 'steward_meta_changed';
/** How long a process waits before listening again after its connection failed or was lost. */
const RETRY_MS = 1000;

/**
 * PostgreSQL: one connection of its own listens to `steward_meta_changed`, opened at the first read
 * (processes that never read the table never open it). Every notification, and every (re)start of
 * listening, moves the version, so values read before are dropped. While the connection is down the
 * version is undefined and every read goes to the table; a change made then is missed by nobody,
 * since listening again moves the version.
 */
export class PostgresMetaChanges implements MetaChanges {
  private client: Client | undefined;
  private listening = false;
  private generation = 0;
  private connecting: Promise<void> | undefined;
  private retryAt = 0;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log?: { warn(o: object, m: string): void },
  ) {}

  version(): string | undefined {
    if (this.listening) return String(this.generation);
    this.listen();
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private listen(): void {
    if (this.connecting || this.closed || Date.now() < this.retryAt) return;
    this.connecting = this.connect().finally(() => (this.connecting = undefined));
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', () => (this.generation += 1));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      this.retryAt = Date.now() + RETRY_MS;
      this.log?.warn({ err: error }, 'cannot listen for changes to steward_meta; reading it every time');
      await client.end().catch(() => undefined);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.generation += 1;
    this.listening = true;
  }

  private lost(client: Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    this.generation += 1;
    this.retryAt = Date.now() + RETRY_MS;
    if (!this.closed) {
      this.log?.warn({ err: error }, 'the connection listening for steward_meta changes was lost');
      client.end().catch(() => undefined);
    }
  }
}

/**
 * SQLite: `PRAGMA data_version` (read from the WAL index, no table touched) moves when another
 * connection, such as `npm run queue`, commits; temporary triggers on this connection count its own
 * writes, which `data_version` does not show. The triggers are made at the first read outside a
 * transaction (the table exists by then); until they are, nothing is kept.
 */
export class SqliteMetaChanges implements MetaChanges {
  private ownWrites = 0;
  private triggers = false;
  private readonly dataVersion: SQLite.Statement;

  constructor(private readonly sqlite: SQLite.Database) {
    sqlite.function('steward_meta_written', () => {
      this.ownWrites += 1;
      return null;
    });
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  }

  version(): string | undefined {
    if (!this.triggers && !this.makeTriggers()) return undefined;
    return `${String(this.dataVersion.get())}.${this.ownWrites}`;
  }

  async close(): Promise<void> {}

  private makeTriggers(): boolean {
    // Made inside another statement's transaction, a rollback could take them away unnoticed.
    if (this.sqlite.inTransaction) return false;
    try {
      for (const event of ['INSERT', 'UPDATE', 'DELETE'])
        this.sqlite.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS steward_meta_${event.toLowerCase()} AFTER ${event} ON main.steward_meta
           BEGIN SELECT steward_meta_written(); END`,
        );
    } catch {
      return false; // the table is not there yet (before the migrations)
    }
    this.triggers = true;
    return true;
  }
}
