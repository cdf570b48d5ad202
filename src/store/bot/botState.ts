import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema';

/** A stored item: any JSON object, with the eTag it was read with (botbuilder's `StoreItem`). */
export interface BotStateItem {
  [key: string]: unknown;
  eTag?: string;
}

/** Raised when a write's eTag no longer matches the stored one: someone else wrote in between. */
export class BotStateConflict extends Error {
  constructor(readonly key: string) {
    super(`The bot state "${key}" was changed by another turn; read it again.`);
    this.name = 'BotStateConflict';
  }
}

const MAX_KEY_LENGTH = 512;

/**
 * The bot's key-value state in the database, with botbuilder's `Storage` shape (`read`, `write`,
 * `delete`), so a restart loses no conversation and several bot processes share it. A write whose
 * `eTag` is neither `*` nor the stored one fails with BotStateConflict and changes nothing.
 */
export class BotStateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The items stored under `keys` (missing keys are absent from the result), each with its eTag. */
  async read(keys: string[]): Promise<Record<string, BotStateItem>> {
    if (keys.length === 0) return {};
    const rows = await this.db
      .selectFrom('bot_state')
      .select(['key', 'value', 'etag'])
      .where('key', 'in', keys.map(checkedKey))
      .execute();
    const items: Record<string, BotStateItem> = {};
    for (const row of rows) items[row.key] = { ...(JSON.parse(row.value) as object), eTag: row.etag };
    return items;
  }

  /** Writes every change in one transaction: all of them, or none when an eTag conflicts. */
  async write(changes: Record<string, BotStateItem>): Promise<void> {
    const entries = Object.entries(changes);
    if (entries.length === 0) return;
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (const [key, item] of entries) {
        checkedKey(key);
        const { eTag, ...value } = item;
        const values = { value: JSON.stringify(value), etag: randomUUID(), updated_at: now };
        if (!eTag || eTag === '*') {
          await trx
            .insertInto('bot_state')
            .values({ key, ...values })
            .onConflict((oc) => oc.column('key').doUpdateSet(values))
            .execute();
          continue;
        }
        const updated = await trx
          .updateTable('bot_state')
          .set(values)
          .where('key', '=', key)
          .where('etag', '=', eTag)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 1) continue;
        // Not there at all: a first write carrying a stale eTag still creates it, as botbuilder's stores do.
        const inserted = await trx
          .insertInto('bot_state')
          .values({ key, ...values })
          .onConflict((oc) => oc.column('key').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new BotStateConflict(key);
      }
    });
  }

  /** Removes the items under `keys` (absent keys are ignored). */
  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.deleteFrom('bot_state').where('key', 'in', keys.map(checkedKey)).execute();
  }

  /** Up to `limit` stored keys that begin with `prefix`, in key order. */
  async keysStartingWith(prefix: string, limit: number): Promise<string[]> {
    checkedKey(prefix);
    // A comparison of the key's first characters rather than LIKE (no character of the prefix is a
    // pattern) or a range (which a database's collation may order differently from its bytes).
    const rows = await this.db
      .selectFrom('bot_state')
      .select('key')
      .where(sql<boolean>`substr(key, 1, ${[...prefix].length}) = ${prefix}`)
      .orderBy('key')
      .limit(limit)
      .execute();
    return rows.map((row) => row.key);
  }
}

function checkedKey(key: string): string {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new RangeError(`A bot state key must be 1–${MAX_KEY_LENGTH} characters long.`);
  }
  return key;
}
