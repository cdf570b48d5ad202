import type { StoreItem, Storage } from 'botbuilder';

/**
 * Typed reads and writes of one item of a botbuilder `Storage`, shared by the bot's records: the
 * storage adds an `eTag` to what it returns, which the records do not carry.
 */

/** The eTag a first write carries so it creates the item only when it is absent. */
const CREATE_ONLY = 'steward-create-only';

/** The item at `key`, without the storage's eTag; undefined when absent. */
export async function readItem<T>(storage: Storage, key: string): Promise<T | undefined> {
  const item = (await storage.read([key]))[key] as (T & StoreItem) | undefined;
  if (!item) return undefined;
  const { eTag: _eTag, ...value } = item;
  return value as T;
}

/** Writes `value` at `key`, whatever is stored there. */
export function writeItem(storage: Storage, key: string, value: object): Promise<void> {
  return storage.write({ [key]: { ...value, eTag: '*' } });
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
