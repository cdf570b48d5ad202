import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { stewardMetaOf } from '../meta/stewardMeta';

/** The `steward_meta` key whose value `true` pauses the job queue (`npm run queue -- pause`). */
export const PAUSED_KEY = 'queue_paused';

/**
 * True while an operator has paused the queue. Every answer that shows a job asks, so the store's
 * kept value is used (read again once the table changed, in any process).
 */
export async function readQueuePaused(db: Kysely<Database>): Promise<boolean> {
  const meta = stewardMetaOf(db);
  if (meta) return (await meta.get(PAUSED_KEY)) === 'true';
  const row = await db
    .selectFrom('steward_meta')
    .select('value')
    .where('key', '=', PAUSED_KEY)
    .executeTakeFirst();
  return row?.value === 'true';
}

/** Pauses or resumes the queue. */
export async function writeQueuePaused(db: Kysely<Database>, paused: boolean): Promise<void> {
  const value = String(paused);
  await db
    .insertInto('steward_meta')
    .values({ key: PAUSED_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  stewardMetaOf(db)?.forget();
}
