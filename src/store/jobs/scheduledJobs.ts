import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/** Waiting jobs that are not due yet (the nightly lifecycle evaluation, approval timers), and the next one. */
export interface ScheduledJobs {
  count: number;
  next?: { type: string; runAt: number };
}

/** The waiting jobs due after `now` (epoch ms): queued for later, not stuck. */
export async function scheduledJobs(db: Kysely<Database>, now: number): Promise<ScheduledJobs> {
  const later = db.selectFrom('jobs').where('status', '=', 'waiting').where('run_at', '>', now);
  const [counted, next] = await Promise.all([
    later.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    later.select(['type', 'run_at']).orderBy('run_at').limit(1).executeTakeFirst(),
  ]);
  return {
    count: Number(counted.n),
    ...(next ? { next: { type: next.type, runAt: Number(next.run_at) } } : {}),
  };
}
