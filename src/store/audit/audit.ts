import { type Kysely, sql } from 'kysely';
import type { AuditActor, AuditEntry, AuditTarget, StoredAuditRecord } from '../../domain/audit';
import { isPostgres } from '../dialect';
import type { Database, Db } from '../schema';

/** Where a page starts: after the record at (date, seq), newest first. */
export interface AuditCursor {
  date: string;
  seq: number;
}

/** Audit records: appended inside the transaction of the change they record, never updated or deleted. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(
    entries: readonly (AuditEntry & { id: string; tenantId: string })[],
    now: Date,
    trx: Db = this.db,
  ): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((entry) => ({
      id: entry.id,
      trail: entry.trail,
      created_at: now.toISOString(),
      tenant_id: entry.tenantId,
      actor: JSON.stringify(entry.actor),
      action: entry.action,
      target: JSON.stringify(entry.target),
      outcome: entry.outcome,
      request_id: entry.requestId,
      details: entry.details ? JSON.stringify(entry.details) : null,
    }));
    const perDay = new Map<string, { trail: string; day: string; count: number }>();
    for (const entry of entries) {
      const key = `${entry.trail}|${dayOf(now.toISOString())}`;
      const bucket = perDay.get(key) ?? { trail: entry.trail, day: dayOf(now.toISOString()), count: 0 };
      bucket.count += 1;
      perDay.set(key, bucket);
    }
    const buckets = [...perDay.values()];
    if (isPostgres(trx)) {
      // One statement for the records and their days' counts (a data-modifying WITH), whatever
      // trails they are in: every statement is a round trip to the deployment's shared database,
      // and a job appends a few.
      await dayCountUpsert(
        trx.with('appended', (db) => db.insertInto('audit_records').values(rows)),
        buckets,
        true,
      ).execute();
    } else {
      await trx.insertInto('audit_records').values(rows).execute();
      await dayCountUpsert(trx, buckets, false).execute();
    }
  }

  /**
   * Appends `entries` on their own, all or none: on PostgreSQL they are one statement, atomic by
   * itself; on SQLite the two statements run in a transaction.
   */
  async appendAtomically(
    entries: readonly (AuditEntry & { id: string; tenantId: string })[],
    now: Date,
  ): Promise<void> {
    if (isPostgres(this.db)) {
      await this.append(entries, now, this.db);
    } else {
      await this.db.transaction().execute((trx) => this.append(entries, now, trx));
    }
  }

  /**
   * How many records of `trail` are dated in [from, to): whole days from the day counts, and only
   * the partial first and last days counted record by record through the (trail, date) index.
   */
  async count(trail: string, options: { from?: string; to?: string } = {}): Promise<number> {
    const { from, to } = options;
    const exact = async (start: string | undefined, end: string | undefined) => {
      let query = this.db.selectFrom(this.rowsOf(trail).as('r')).select((eb) => eb.fn.countAll().as('n'));
      if (start) query = query.where('created_at', '>=', start);
      if (end) query = query.where('created_at', '<', end);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    const fromDay = from ? dayOf(from) : undefined;
    const toDay = to ? dayOf(to) : undefined;
    if (from && to && (to <= from || fromDay === toDay)) return to <= from ? 0 : exact(from, to);
    let days = this.db
      .selectFrom('audit_counts')
      .select((eb) => eb.fn.sum<number | string | null>('count').as('n'))
      .where('trail', '=', trail);
    if (fromDay) days = days.where('day', '>', fromDay);
    if (toDay) days = days.where('day', '<', toDay);
    const [whole, head, tail] = await Promise.all([
      days.executeTakeFirstOrThrow(),
      from ? exact(from, nextDay(fromDay!)) : 0,
      to ? exact(toDay!, to) : 0,
    ]);
    return Number(whole.n ?? 0) + head + tail;
  }

  /**
   * One page of a trail, newest first: records dated in [from, to) strictly after `after` in that
   * order. Reads one record more than `top` to tell whether another page follows.
   */
  async page(
    trail: string,
    options: { top: number; after?: AuditCursor; from?: string; to?: string },
  ): Promise<{ records: StoredAuditRecord[]; more: boolean }> {
    let query = this.db.selectFrom(this.rowsOf(trail).as('r')).selectAll();
    if (options.from) query = query.where('created_at', '>=', options.from);
    if (options.to) query = query.where('created_at', '<', options.to);
    const after = options.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.date),
          eb.and([eb('created_at', '=', after.date), eb('seq', '<', after.seq)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(options.top + 1)
      .execute();
    return {
      records: rows.slice(0, options.top).map((row) => ({
        seq: Number(row.seq),
        id: row.id,
        trail: row.trail,
        date: row.created_at,
        tenantId: row.tenant_id,
        actor: JSON.parse(row.actor) as AuditActor,
        action: row.action,
        target: JSON.parse(row.target) as AuditTarget,
        outcome: row.outcome,
        requestId: row.request_id,
        details: detailsOf(row),
      })),
      more: rows.length > options.top,
    };
  }

  /**
   * The records of `trail`. The security trail's records since migration 0009 are the refusal
   * counters (`store/refusals.ts`): each row reads as one record whose details carry its count so
   * far; security records appended one by one before then stay readable alongside them.
   */
  private rowsOf(trail: string) {
    const records = this.db
      .selectFrom('audit_records')
      .select(['seq', 'id', 'trail', 'created_at', 'tenant_id', 'actor', 'action', 'target', 'outcome'])
      .select(['request_id', 'details'])
      .select([sql<string | null>`cast(null as varchar(32))`.as('last_at')])
      .select([sql<string | null>`cast(null as varchar(32))`.as('count')])
      .where('trail', '=', trail);
    if (trail !== 'security') return records;
    return records.unionAll(
      this.db
        .selectFrom('refusal_counts')
        .select(['seq', 'id'])
        .select(sql.lit('security').as('trail'))
        .select(['created_at', 'tenant_id', 'actor', 'action', 'target'])
        .select(sql.lit('denied').as('outcome'))
        .select(['request_id', 'details', 'last_at'])
        .select((eb) => eb.cast<string | null>('count', 'varchar(32)').as('count')),
    );
  }
}

/** A row's details; a refusal counter's carry its count and the time of its latest refusal. */
function detailsOf(row: { details: string | null; count: string | null; last_at: string | null }) {
  const details = row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null;
  if (row.count === null) return details;
  return { ...details, count: Number(row.count), lastAt: row.last_at };
}

/**
 * Adds `count` records to `trail`'s total of `day`, on one of a few shard rows (see
 * `dayCountUpsert`) so concurrent appends rarely wait on one row lock.
 */
export async function addToDayCount(trx: Db, trail: string, day: string, count: number): Promise<void> {
  await dayCountUpsert(trx, [{ trail, day, count }], isPostgres(trx)).execute();
}

/**
 * The upsert adding each bucket's `count` to a shard row of its trail's day, on `db` (or after its
 * WITH). The buckets are of distinct trails and days, so no two rows of the one statement meet the
 * same row, and they are written in one order (trail, then day).
 *
 * On PostgreSQL the shard is the connection's (`pg_backend_pid() % COUNT_SHARDS`): every append of
 * a transaction lands on the same rows, so two transactions that each append several records of
 * one trail wait for each other instead of locking two shard rows in opposite orders (a shard
 * drawn at random per append deadlocked there). Concurrent transactions still spread over the
 * shards by their connections. On SQLite writers take turns anyway; the shard is drawn at random.
 */
function dayCountUpsert(
  db: Pick<Db, 'insertInto'>,
  buckets: ReadonlyArray<{ trail: string; day: string; count: number }>,
  postgres: boolean,
) {
  const shard = postgres
    ? sql<number>`pg_backend_pid() % ${sql.lit(COUNT_SHARDS)}`
    : Math.floor(Math.random() * COUNT_SHARDS);
  const ordered = [...buckets].sort((a, b) =>
    a.trail === b.trail ? a.day.localeCompare(b.day) : a.trail.localeCompare(b.trail),
  );
  return db
    .insertInto('audit_counts')
    .values(ordered.map(({ trail, day, count }) => ({ trail, day, count, shard })))
    .onConflict((oc) =>
      oc
        .columns(['trail', 'day', 'shard'])
        .doUpdateSet((eb) => ({ count: eb('audit_counts.count', '+', eb.ref('excluded.count')) })),
    );
}

/** Day rows per trail and day that appends spread over. */
const COUNT_SHARDS = 8;

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp. */
function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/** The start of the day after `day`, as an ISO prefix that sorts after every timestamp of `day`. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
