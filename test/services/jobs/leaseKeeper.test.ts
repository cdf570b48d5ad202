import { LeaseKeeper } from '../../../src/services/jobs/leaseKeeper';
import { JobRepository } from '../../../src/store/jobs/jobs';
import { databaseKinds, suiteStore } from '../../support/databases';

/**
 * A worker renews its leases on Steward's clock, the one its claims read: on a clock moved
 * forward (as tests and a deployment's injected clock do), a lease renewed on the system's time
 * would already have run out, and another worker would take the job while it runs.
 */
describe.each(databaseKinds)('lease renewal on Steward’s clock (%s)', (kind) => {
  const suite = suiteStore(kind);

  test('a job held on a clock an hour ahead keeps its lease against another worker on that clock', async () => {
    const hourAhead = () => Date.now() + 3_600_000;
    const store = suite.store();
    const jobs = new JobRepository(store.db);
    const leaseMs = 3000;
    await jobs.insert(
      { id: 'lease-clock', type: 'WebhookDelivery', queued: true, data: {}, log: [], requesterId: 'system' },
      new Date(hourAhead()),
    );
    const [claimed] = await jobs.claim('worker-a', 1, leaseMs, hourAhead());
    expect(claimed?.id).toBe('lease-clock');

    let lost = false;
    const keeper = new LeaseKeeper(store.db, 'worker-a', leaseMs, { warn: () => undefined }, hourAhead);
    const release = keeper.keep('lease-clock', () => {
      lost = true;
    });
    try {
      // Wait for a renewal (every leaseMs / 3, so within 10 s on a loaded machine): the lease then ends a lease after the moved clock.
      const claimedUntil = hourAhead() + leaseMs;
      let until = 0;
      for (let waited = 0; until <= claimedUntil && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const row = await store.db
          .selectFrom('jobs')
          .select('lease_until')
          .where('id', '=', 'lease-clock')
          .executeTakeFirstOrThrow();
        until = Number(row.lease_until);
      }
      expect(until).toBeGreaterThan(claimedUntil);
      // Just past the first lease's end, on the moved clock, another worker finds nothing to take.
      expect(await jobs.claim('worker-b', 1, leaseMs, claimedUntil + 1)).toEqual([]);
      expect(lost).toBe(false);
    } finally {
      release();
    }
  });
});
