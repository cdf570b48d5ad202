import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { BudgetBucket, GraphBudgetStore, Reservation } from '../../domain/graphBudget';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';

/** Buckets whose time is this far in the past carry no state any more and are deleted by `sweep`. */
const SWEEP_AFTER_MS = 60_000;

/**
 * The Graph budget's buckets as rows `graph_budget(key, tat)`, shared by every process on the
 * database (`docs/graph-budget.md`). A reservation is one `INSERT … ON CONFLICT DO UPDATE …
 * RETURNING` over all the buckets of a call, in key order (so two reservations never wait on each
 * other's rows in opposite orders): a team's, channel's or member additions' row moves its `tat`
 * one interval past the call's start, the latest of `now` and the buckets' times, a request class's
 * row one interval past its own next turn, unless that start is more than `maxWaitMs` from now. No
 * lock is held beyond the statement. PostgreSQL reads the time from the database (`now()`), so workers on
 * machines with skewed clocks share one timeline; SQLite has one writer machine, its clock is the
 * process's.
 */
export class GraphBudgetRepository implements GraphBudgetStore {
  private readonly postgres: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {
    this.postgres = isPostgres(db);
  }

  async reserve(buckets: readonly BudgetBucket[], maxWaitMs: number): Promise<Reservation> {
    if (buckets.length === 0) return { waitMs: 0 };
    const sorted = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const now = this.now();
    const keys = sql.join(sorted.map((b) => b.key));
    // The call starts when its busiest bucket lets it (`base`). A team's, a channel's or a team's
    // member additions' next turn is one interval after that start, not after its own, or a bucket
    // that was free would let the next call on that team follow too closely behind this one. A
    // request class, shared by every team, takes its own next turn instead: moved to a start that
    // a team's turn set, it would leave its turns before that start to nobody (a reader of two
    // calls a team then got one team through every 316 ms where the class allows 27 calls a
    // second). The call goes at its start, a little after its class turn; the class still serves
    // one call a turn, and each process spaces its own calls of a bucket (`GraphBudget.waitForTurn`).
    const base = this.greatest(now, sql`(SELECT s FROM busiest)`);
    // Each row keeps its interval too: a claim reads how many turns a bucket has free soon. A row
    // already there moves to the later of that next turn and one interval past its own tat.
    const rows = sql.join(
      sorted.map((b) => {
        const interval = Math.ceil(b.intervalMs);
        const start = isClassKey(b.key) ? now : base;
        return sql`(${b.key}, ${start} + ${interval}, CAST(${interval} AS bigint))`;
      }),
    );
    const wait = Math.round(maxWaitMs);
    const { rows: reserved } = await sql<{ key: string; tat: string | number; now: string | number }>`
      WITH busiest AS (SELECT coalesce(max(tat), 0) AS s FROM graph_budget WHERE key IN (${keys})),
        wanted (key, tat, interval_ms) AS (VALUES ${rows})
      INSERT INTO graph_budget (key, tat, interval_ms)
      SELECT key, tat, interval_ms FROM wanted WHERE ${base} - ${now} <= ${wait}
      ON CONFLICT (key) DO UPDATE SET
        tat = ${this.greatest(sql`excluded.tat`, sql`graph_budget.tat + excluded.interval_ms`)},
        interval_ms = excluded.interval_ms
      WHERE ${this.greatest(sql`graph_budget.tat`, base)} - ${now} <= ${wait}
      RETURNING key, tat, ${now} AS now`.execute(this.db);
    if (reserved.length === sorted.length) {
      // The call starts when its slowest bucket lets it: one interval before that bucket's new tat
      // (a class's turn, taken at its own time, is never later than the start).
      const waitMs = Math.max(
        0,
        ...reserved.map((row) => {
          const interval = Math.ceil(sorted.find((b) => b.key === row.key)!.intervalMs);
          return Number(row.tat) - interval - Number(row.now);
        }),
      );
      return { waitMs };
    }
    return this.giveBack(sorted, new Set(reserved.map((row) => row.key)));
  }

  async penalise(keys: readonly string[], retryAfterMs: number): Promise<void> {
    if (keys.length === 0) return;
    const now = this.now();
    const until = sql`${now} + ${Math.ceil(retryAfterMs)}`;
    const rows = sql.join([...new Set(keys)].sort().map((key) => sql`(${key}, ${until})`));
    await sql`INSERT INTO graph_budget (key, tat) VALUES ${rows}
      ON CONFLICT (key) DO UPDATE SET tat = ${this.greatest(sql`graph_budget.tat`, sql`excluded.tat`)}`.execute(
      this.db,
    );
  }

  async sweep(): Promise<number> {
    const result = await sql`DELETE FROM graph_budget WHERE tat < ${this.now()} - ${SWEEP_AFTER_MS}`.execute(
      this.db,
    );
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * One bucket could not serve the call soon: the turns taken in the others are handed back (rare:
   * only while a class sits out a long `Retry-After` or a team's member additions are spent), and
   * the answer is the longest wait among the buckets that refused, and that bucket.
   */
  private async giveBack(sorted: readonly BudgetBucket[], taken: ReadonlySet<string>): Promise<Reservation> {
    const now = this.now();
    for (const bucket of sorted.filter((b) => taken.has(b.key))) {
      await sql`UPDATE graph_budget SET tat = tat - ${Math.ceil(bucket.intervalMs)} WHERE key = ${bucket.key}`.execute(
        this.db,
      );
    }
    const refused = sorted.filter((b) => !taken.has(b.key)).map((b) => b.key);
    const { rows } = await sql<{ key: string; wait: string | number }>`
      SELECT key, tat - ${now} AS wait FROM graph_budget WHERE key IN (${sql.join(refused)})
      ORDER BY tat DESC LIMIT 1`.execute(this.db);
    return { deferredMs: Math.max(1, Number(rows[0]?.wait ?? 1)), key: rows[0]?.key ?? refused[0]! };
  }

  /** Now in milliseconds since the epoch: the database's clock on PostgreSQL. */
  private now(): RawBuilder<unknown> | number {
    return this.postgres ? sql`(floor(extract(epoch from now()) * 1000))::bigint` : this.clock();
  }

  private greatest(a: unknown, b: unknown): RawBuilder<unknown> {
    return this.postgres ? sql`GREATEST(${a}, ${b})` : sql`max(${a}, ${b})`;
  }
}

/** A request class's bucket (`class:…`), shared by every team, as opposed to a team's or a channel's. */
function isClassKey(key: string): boolean {
  return key.startsWith('class:');
}
