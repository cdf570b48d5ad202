import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { AuditEntry } from '../../src/domain/audit';
import { AuditRepository } from '../../src/store/audit/audit';
import { TRANSACTION_ATTEMPTS } from '../../src/store/retryingKysely';
import type { Database } from '../../src/store/schema';
import { databaseKinds, suiteStore } from '../support/databases';

const onPostgres = databaseKinds.includes('postgres') ? describe : describe.skip;

/** Resolves `wait` once `arrive` has been called `parties` times. */
function barrier(parties: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      if (++arrived === parties) open();
      return opened;
    },
  };
}

/**
 * PostgreSQL aborts one of two transactions that lock rows in opposite orders (`deadlock
 * detected`, 40P01). Steward's transactions run again when that happens, so the caller sees
 * neither the deadlock nor a 500; and the audit trail's day counts no longer lock in opposite
 * orders in the first place.
 */
onPostgres('transactions PostgreSQL aborts', () => {
  const suite = suiteStore('postgres');

  test('a transaction aborted for a deadlock runs again and both callers succeed', async () => {
    const { db } = suite.store();
    await db
      .insertInto('steward_meta')
      .values([
        { key: 'race-a', value: '0' },
        { key: 'race-b', value: '0' },
      ])
      .execute();
    const bothHold = barrier(2);
    let attempts = 0;
    const crossing = (first: string, second: string) =>
      db.transaction().execute(async (trx) => {
        attempts++;
        await trx.updateTable('steward_meta').set({ value: first }).where('key', '=', first).execute();
        // Once both hold their first row, each asks for the other's: PostgreSQL aborts one.
        await bothHold.arrive();
        await trx.updateTable('steward_meta').set({ value: first }).where('key', '=', second).execute();
        return first;
      });
    await expect(Promise.all([crossing('race-a', 'race-b'), crossing('race-b', 'race-a')])).resolves.toEqual([
      'race-a',
      'race-b',
    ]);
    expect(attempts).toBe(3);
  });

  test('an error that is not an abort is not retried', async () => {
    const { db } = suite.store();
    let attempts = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        attempts++;
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(attempts).toBe(1);
    expect(TRANSACTION_ATTEMPTS).toBeGreaterThan(1);
  });

  test('transactions appending several records of one trail at once never deadlock on the day counts', async () => {
    const store = suite.store();
    // Without the retry, so that a deadlock would reach the test.
    const bare = new Kysely<Database>({ dialect: new PostgresDialect({ pool: store.pgPool! }) });
    const audit = new AuditRepository(bare);
    const now = new Date('2026-04-01T09:00:00Z');
    const entry = (): AuditEntry & { id: string; tenantId: string } => ({
      id: randomUUID(),
      tenantId: 'tenant',
      trail: 'teams',
      action: 'drift_apply_requested',
      actor: { type: 'system', id: 'steward' },
      target: { type: 'team', id: randomUUID() },
      outcome: 'success',
      requestId: null,
    });
    const writers = 8;
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      // Every writer appends once, waits until the others have appended too (or wait for a row
      // lock, as a writer does behind one on its shard row), and appends twice more: the moment a
      // shard drawn per append locked rows in opposite orders.
      let appended = 0;
      const gate = everyoneAppended(bare, () => appended, writers);
      await Promise.all(
        Array.from({ length: writers }, () =>
          bare.transaction().execute(async (trx) => {
            await audit.append([entry()], now, trx);
            appended++;
            await gate;
            await audit.append([entry()], now, trx);
            await audit.append([entry()], now, trx);
          }),
        ),
      );
    }
    expect(await audit.count('teams', { from: '2026-04-01', to: '2026-04-02' })).toBe(writers * rounds * 3);
  });
});

/**
 * Resolves once every writer has appended or waits for a row lock (behind another on its shard
 * row), as PostgreSQL's sessions of the test's database show it.
 */
async function everyoneAppended(db: Kysely<Database>, appended: () => number, writers: number) {
  for (;;) {
    const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (appended() + waiting.rows[0]!.n >= writers) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
