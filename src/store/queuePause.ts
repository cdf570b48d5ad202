import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The `steward_meta` key whose value `true` pauses the job queue (`npm run queue -- pause`). */
export const PAUSED_KEY = 'queue_paused';

/** True while an operator has paused the queue. */
export async function readQueuePaused(db: Kysely<Database>): Promise<boolean> {
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
}
