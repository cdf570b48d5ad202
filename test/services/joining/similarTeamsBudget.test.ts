import type { Job, TeamRequestPreview } from '../../../src/contract';
import { requestClassKey } from '../../../src/domain/graphBudget';
import { GraphBudgetRepository } from '../../../src/store/graphBudget/graphBudget';
import { type BudgetedSteward, startBudgetedSteward } from '../../support/budgetedSteward';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

/**
 * The similar teams shown with a request are read from Graph on the tenant's shared budget, and
 * are a warning, never a refusal. While provisioning jobs spend that budget, a request does not
 * wait behind their turns for it (nor take them): it is answered without the warning, at once.
 */
describe.each(databaseKinds)('similar teams on a spent Graph budget (%s)', (kind) => {
  let steward: BudgetedSteward;

  beforeAll(async () => {
    steward = await startBudgetedSteward(kind, { limits: {}, maxWaitMs: 60_000, concurrency: 2 });
  });

  afterAll(async () => {
    await steward?.close();
  });

  test('a request is answered without the warning rather than wait for a turn', async () => {
    const { app, fake } = steward;
    const alex = await app.userToken(PEOPLE.alex);
    const made = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: { template: { id: 'project' }, team: { name: 'Mercury launch' } },
    });
    expect(made.status).toBe(201);
    expect((await waitForJob(app, alex, made.body.id)).status).toBe('completed');
    const preview = () =>
      app.call<TeamRequestPreview>('POST', '/api/v1.0/teams/provisioning/preview', {
        token: alex,
        body: { template: { id: 'project' }, team: { name: 'Mercury launch two' } },
      });

    // With turns free, the team alike is read and shown.
    const shown = await preview();
    expect(shown.status).toBe(200);
    expect(shown.body.similarTeams?.map((t) => t.displayName)).toEqual(['PRJ-Mercury launch']);

    // The Teams `other` class spent for the next 20 s (jobs, or a 429 another process heard).
    await new GraphBudgetRepository(app.steward.store.db).penalise([requestClassKey('other')], 20_000);
    const mark = fake.requests.length;
    const busy = await preview();
    expect(busy.status).toBe(200);
    expect(busy.body.similarTeams).toBeUndefined();
    // Nothing was sent to Teams for the warning, and the request did not wait out the 20 s.
    expect(fake.requests.slice(mark).filter((r) => r.path.startsWith('/v1.0/teams'))).toEqual([]);
  });
});
