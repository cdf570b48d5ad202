import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../../src/domain/audit';
import { AuditRepository } from '../../../src/store/audit/audit';
import { databaseKinds, suiteStore } from '../../support/databases';

/**
 * One append of records in several trails (a provisioning job's completion: `job_completed` in
 * its own trail, `team_created` in `teams`) keeps every trail's day count true, whether the append
 * runs in a transaction of the caller's or on its own, on both databases.
 */
describe.each(databaseKinds)('audit day counts across trails (%s)', (kind) => {
  const suite = suiteStore(kind);

  const entry = (trail: AuditEntry['trail'], action: string) => ({
    id: randomUUID(),
    tenantId: 'tenant',
    trail,
    action,
    actor: { type: 'system' as const, id: 'steward' },
    target: { type: 'job', id: randomUUID() },
    outcome: 'success' as const,
    requestId: null,
  });

  test('records of two trails appended together are counted in each trail', async () => {
    const store = suite.store();
    const audit = new AuditRepository(store.db);
    const now = new Date('2026-03-03T10:00:00Z');
    await store.db
      .transaction()
      .execute((trx) =>
        audit.append(
          [entry('team_provisioning', 'job_completed'), entry('teams', 'team_created'), entry('teams', 'x')],
          now,
          trx,
        ),
      );
    await audit.appendAtomically([entry('team_provisioning', 'job_started'), entry('teams', 'y')], now);
    const counted = {
      provisioning: await audit.count('team_provisioning'),
      teams: await audit.count('teams'),
    };
    const rows = await store.db
      .selectFrom('audit_records')
      .select(['trail'])
      .where('created_at', '=', now.toISOString())
      .execute();
    expect(counted).toEqual({
      provisioning: rows.filter((r) => r.trail === 'team_provisioning').length,
      teams: rows.filter((r) => r.trail === 'teams').length,
    });
    expect(counted).toEqual({ provisioning: 2, teams: 3 });
  });
});
