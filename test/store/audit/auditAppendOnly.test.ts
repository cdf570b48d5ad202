import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { AuditRepository } from '../../../src/store/audit/audit';
import { databaseKinds, suiteStore } from '../../support/databases';

/**
 * The audit trails' day counts, behind every trail's `@odata.count`, are kept like the records:
 * appends add to them, and the database refuses a row lowered, moved or deleted, on both stores.
 * On PostgreSQL, TRUNCATE (which row triggers do not see) is refused on every audit table.
 */
describe.each(databaseKinds)('audit counts only grow (%s)', (kind) => {
  const suite = suiteStore(kind);
  const day = '2026-04-07';
  const now = new Date(`${day}T09:00:00Z`);
  // better-sqlite3's errors are not `Error`s of the test's realm: match on the message.
  const refused = (pattern: RegExp) => ({ message: expect.stringMatching(pattern) });

  const append = (n: number) =>
    new AuditRepository(suite.store().db).appendAtomically(
      Array.from({ length: n }, () => ({
        id: randomUUID(),
        tenantId: 'tenant',
        trail: 'catalog' as const,
        action: 'template_updated',
        actor: { type: 'system' as const, id: 'steward' },
        target: { type: 'template', id: 'project' },
        outcome: 'success' as const,
        requestId: null,
      })),
      now,
    );
  const counted = () => new AuditRepository(suite.store().db).count('catalog');

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await append(3);
  });

  test('appends add to the count', async () => {
    expect(await counted()).toBe(15);
    await append(2);
    expect(await counted()).toBe(17);
  });

  test('an UPDATE lowering a count, or moving its row, is refused', async () => {
    const db = suite.store().db;
    const before = await counted();
    await expect(sql`UPDATE audit_counts SET count = 0`.execute(db)).rejects.toMatchObject(
      refused(/audit counts only grow/),
    );
    await expect(sql`UPDATE audit_counts SET count = count - 1`.execute(db)).rejects.toMatchObject(
      refused(/audit counts only grow/),
    );
    for (const move of [sql`day = '2000-01-01'`, sql`trail = 'other'`, sql`shard = shard + 100`]) {
      await expect(sql`UPDATE audit_counts SET ${move}`.execute(db)).rejects.toMatchObject(
        refused(/audit counts only grow/),
      );
    }
    expect(await counted()).toBe(before);
  });

  test('a count row cannot be deleted, nor one with a negative count inserted', async () => {
    const db = suite.store().db;
    const before = await counted();
    await expect(sql`DELETE FROM audit_counts`.execute(db)).rejects.toMatchObject(
      refused(/audit counts only grow/),
    );
    await expect(
      sql`INSERT INTO audit_counts (trail, day, shard, count) VALUES ('catalog', ${day}, 99, ${-before})`.execute(
        db,
      ),
    ).rejects.toMatchObject(refused(/audit counts only grow/));
    expect(await counted()).toBe(before);
  });

  if (kind === 'postgres') {
    test('TRUNCATE of the audit tables is refused', async () => {
      const db = suite.store().db;
      const before = await counted();
      for (const table of ['audit_records', 'audit_counts', 'refusal_counts']) {
        await expect(sql.raw(`TRUNCATE ${table}`).execute(db)).rejects.toMatchObject(
          refused(new RegExp(`${table} is append-only`)),
        );
      }
      await expect(sql`TRUNCATE audit_records, audit_counts`.execute(db)).rejects.toMatchObject(
        refused(/append-only/),
      );
      expect(await counted()).toBe(before);
      const records = await db
        .selectFrom('audit_records')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(records.n)).toBe(before);
    });
  }
});
