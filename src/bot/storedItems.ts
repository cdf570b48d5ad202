import type { StoreItem, Storage } from 'botbuilder';

/**
 * Typed reads and writes of one item of a botbuilder `Storage`, shared by the bot's records: the
 * storage adds an `eTag` to what it returns, which the records do not carry. Each feature keeps its
 * records in a small class over these (`requests/requestState.ts`, `approvals/approvalState.ts`,
 * `welcome/welcomeState.ts`, `lifecycle/lifecycleCardState.ts`, `reachState.ts`, `webhookState.ts`),
 * all in the one storage, each under keys of its own.
 */

/** A botbuilder `Storage` that can also list its keys (the database's; MemoryStorage cannot). */
export type BotStorage = Storage & {
  keysStartingWith?(prefix: string, limit: number): Promise<string[]>;
};

/** The eTag a first write carries so it creates the item only when it is absent. */
const CREATE_ONLY = 'steward-create-only';

/** How often a change is made again because another turn or process wrote the item in between. */
const CHANGE_ATTEMPTS = 10;

/** Raised when an item kept being written by others while a change was being made to it. */
export class ItemKeptChanging extends Error {
  constructor(readonly key: string) {
    super(`The bot state "${key}" kept changing; the change was not written.`);
    this.name = 'ItemKeptChanging';
  }
}

function withoutETag<T>(item: (T & StoreItem) | undefined): T | undefined {
  if (!item) return undefined;
  const { eTag: _eTag, ...value } = item;
  return value as T;
}

/** The item at `key`, without the storage's eTag; undefined when absent. */
export async function readItem<T>(storage: Storage, key: string): Promise<T | undefined> {
  return withoutETag((await storage.read([key]))[key] as (T & StoreItem) | undefined);
}

/** Writes `value` at `key`, whatever is stored there. */
export function writeItem(storage: Storage, key: string, value: object): Promise<void> {
  return storage.write({ [key]: { ...value, eTag: '*' } });
}

/** Removes the item at `key` (nothing happens when it is absent). */
export function deleteItem(storage: Storage, key: string): Promise<void> {
  return storage.delete([key]);
}

/**
 * The keys starting with `prefix`, without it, at most `limit` of them; none where the storage
 * cannot list its keys.
 */
export async function keysUnder(storage: BotStorage, prefix: string, limit: number): Promise<string[]> {
  if (!storage.keysStartingWith) return [];
  const keys = await storage.keysStartingWith(prefix, limit);
  return keys.map((key) => key.slice(prefix.length));
}

/** Writes `value` unless `key` exists: a stale eTag conflicts with a stored item and creates an absent one. */
export async function createItem(storage: Storage, key: string, value: object): Promise<boolean> {
  try {
    await storage.write({ [key]: { ...value, eTag: CREATE_ONLY } });
    return true;
  } catch (error) {
    if ((await storage.read([key]))[key]) return false;
    throw error;
  }
}

/**
 * Changes the item at `key`: `change` gets it as stored now (undefined when absent) and returns
 * what to store, or undefined to leave it as it is. The write carries the eTag the item was read
 * with, so it fails when another bot process wrote the item in between; the item is then read and
 * changed again (`change` may run several times, so it must only compute). Resolves to the item
 * as stored after the change.
 */
export async function updateItem<T extends object>(
  storage: Storage,
  key: string,
  change: (current: T | undefined) => T | undefined,
): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    const stored = (await storage.read([key]))[key] as (T & StoreItem) | undefined;
    const current = withoutETag(stored);
    const next = change(current);
    if (next === undefined) return current;
    try {
      await storage.write({ [key]: { ...next, eTag: stored?.eTag ?? CREATE_ONLY } });
      return next;
    } catch (error) {
      // Only a write that lost to another one is made again; any other failure is the caller's.
      const now = (await storage.read([key]))[key] as StoreItem | undefined;
      if (now?.eTag === stored?.eTag) throw error;
      if (attempt >= CHANGE_ATTEMPTS) throw new ItemKeptChanging(key);
    }
  }
}
