import type { Job } from '../../../src/contract';
import { type BudgetedSteward, startBudgetedSteward } from '../../support/budgetedSteward';
import { databaseKinds } from '../../support/databases';
import { expectCompleted, requestTeamsWithIsaiah } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

const TEAMS = 8;

/**
 * A burst the tenant-wide Graph budget cannot serve at once: `POST /teams` at 2 a second, the other
 * Teams calls at 4 and channels and tabs at 4 a second, one call a second per channel, and no
 * in-process wait beyond one interval, so most calls are deferred, many of them more often than a
 * job has attempts. Each deferral parks its job until its turn; no attempt is spent, so
 * every job completes, with one team each, and shows what it waited for while it did.
 */
describe.each(databaseKinds)('jobs parked while the Graph budget is spent (%s)', (kind) => {
  let steward: BudgetedSteward;

  beforeAll(async () => {
    steward = await startBudgetedSteward(kind, {
      limits: {
        createTeamPerSecond: 2,
        otherPerSecond: 4,
        channelOrTabPerSecond: 4,
        perTeamPerSecond: 4,
        perChannelPerSecond: 1,
        channelCreationsPerTeamPerSecond: 1,
      },
      maxWaitMs: 200,
      concurrency: 4,
    });
  });

  afterAll(async () => {
    await steward?.close();
  });

  test(`${TEAMS} teams through a spent budget: every job completes, none spends an attempt waiting`, async () => {
    const { app, fake } = steward;
    const alex = await app.userToken(PEOPLE.alex);
    const ids = await requestTeamsWithIsaiah(
      app,
      alex,
      Array.from({ length: TEAMS }, (_, n) => `Budget ${n}`),
    );

    const store = app.steward.store.db;
    let seenWaiting: Job | undefined;
    const started = Date.now();
    for (;;) {
      const rows = await store.selectFrom('jobs').select(['id', 'status', 'checkpoint']).execute();
      const parked = rows.find((r) => r.status === 'parked' && r.checkpoint.includes('graphBudget'));
      if (parked && !seenWaiting) {
        const seen = await app.call<Job>('GET', `/api/v1.0/jobs/${parked.id}`, { token: alex });
        if (seen.body.waitingFor?.reason === 'graphBudget') seenWaiting = seen.body;
      }
      if (rows.filter((r) => r.status === 'completed' || r.status === 'failed').length === TEAMS) break;
      if (Date.now() - started > 60_000) throw new Error(`not done: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    expect(seenWaiting).toMatchObject({
      status: 'active',
      waitingFor: { reason: 'graphBudget', description: expect.stringContaining('Graph request budget') },
    });
    for (const job of await expectCompleted(app, alex, ids)) {
      // Waiting for a turn is not a failed attempt.
      expect(job.log.filter((line) => line.startsWith('Attempt '))).toEqual([]);
    }
    const attempts = await store.selectFrom('jobs').select('attempts').where('id', 'in', ids).execute();
    expect(attempts.map((r) => r.attempts)).toEqual(ids.map(() => 0));
    expect(fake.graphRequests().filter((r) => r.method === 'POST' && r.path === '/v1.0/teams')).toHaveLength(
      TEAMS,
    );
  }, 90_000);
});
