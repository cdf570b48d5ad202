import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema';

/** Rows whose window ended this long ago are deleted, at most once per `SWEEP_EVERY_MS` a process. */
const SWEEP_AFTER_MS = 3_600_000;
const SWEEP_EVERY_MS = 300_000;

/** What one lease got from a caller's budget. */
export interface Lease {
  /** Calls granted to the leasing process: at most what it asked, never past the limit. */
  granted: number;
  /** Calls asked of this window so far, by every process (may exceed the limit once it is spent). */
  asked: number;
  /** When the window ends (ms since the epoch); the budget is full again after it. */
  expiresAt: number;
}

/** Where the budgets live: the deployment's database, or this process's memory (a fallback). */
export interface LeaseStore {
  lease(key: string, want: number, limit: number, holder: string, windowMs: number): Promise<Lease>;
}

/**
 * Callers' budgets as rows `rate_limits(key, points, expire, holder, last_lease)`, shared by every
 * process on the database. A lease is one upsert: it starts a new window when the last one ended,
 * and asks for `want` calls only when `holder` (the leasing process) also took the window's previous
 * block, otherwise for one: a caller served by several processes in turn is counted call by call, as
 * exactly as one counter. `points` counts what was asked, so what the lease got is computed from the
 * row it returns, and the grant never takes the window past `limit`. Same table, key and `points` /
 * `expire` meaning as rate-limiter-flexible's PostgreSQL store, which wrote it before.
 */
export class RateLimitRepository implements LeaseStore {
  private sweptAt = Date.now();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async lease(key: string, want: number, limit: number, holder: string, windowMs: number): Promise<Lease> {
    const now = this.clock();
    const ended = sql<boolean>`coalesce(rate_limits.expire, 0) <= ${now}`;
    const mine = sql<boolean>`(${ended} or rate_limits.holder = ${holder})`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, points: want, expire: now + windowMs, holder, last_lease: want })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          points: sql`case when ${ended} then ${want} when ${mine} then rate_limits.points + ${want} else rate_limits.points + 1 end`,
          expire: sql`case when ${ended} then ${now + windowMs} else rate_limits.expire end`,
          last_lease: sql`case when ${mine} then ${want} else 1 end`,
          holder,
        }),
      )
      .returning(['points', 'expire', 'last_lease'])
      .executeTakeFirstOrThrow();
    this.sweep(now);
    return leaseOf(Number(row.points), Number(row.last_lease), Number(row.expire), limit);
  }

  /** Deletes long-ended windows now and then (not awaited: a failed sweep costs nothing). */
  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    this.db
      .deleteFrom('rate_limits')
      .where('expire', '<', now - SWEEP_AFTER_MS)
      .execute()
      .catch(() => undefined);
  }
}

/**
 * The lease of a process whose budgets stay in memory: the fallback while the database does not
 * answer, so that calls are still limited (per process) rather than refused or let through.
 */
export class MemoryLeases implements LeaseStore {
  private readonly windows = new Map<string, { asked: number; expiresAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async lease(key: string, want: number, limit: number, _holder: string, windowMs: number): Promise<Lease> {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || window.expiresAt <= now) {
      if (this.windows.size >= 10_000) this.forgetEnded(now);
      window = { asked: 0, expiresAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.asked += want;
    return leaseOf(window.asked, want, window.expiresAt, limit);
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
  }
}

/** What a lease of `last` calls got when `asked` calls (its own included) were asked of the window. */
function leaseOf(asked: number, last: number, expiresAt: number, limit: number): Lease {
  const before = asked - last;
  return { granted: Math.max(0, Math.min(last, limit - before)), asked, expiresAt };
}
