import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/**
 * Extends `owner`'s leases on the jobs `ids` until `now + leaseMs`, in one statement however many
 * jobs a worker holds, and returns the ids whose lease it still held (the others were taken over
 * by another worker after this one's lease ran out).
 */
export async function renewLeases(
  db: Kysely<Database>,
  ids: readonly string[],
  owner: string,
  leaseMs: number,
  now: number,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('jobs')
    .set({ lease_until: now + leaseMs })
    .where('id', 'in', [...ids])
    .where('lease_owner', '=', owner)
    .where('status', '=', 'active')
    .returning('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}
