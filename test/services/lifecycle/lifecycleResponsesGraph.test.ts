import type { Agent } from 'undici';
import type { GuestReview, OwnershipStepUp } from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant } from '../../support/graphTenant';
import { GUESTS, jobEnded } from '../../support/guests';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Stepping up and guest reviews with Microsoft Graph (the simulator) as the platform: the jobs
 * change the team's conversationMembers through the Graph adapter, so the new owner has Graph's
 * `owner` role and the removed guest is gone from the team's members.
 */
describe.each(databaseKinds)('lifecycle responses on Microsoft Graph (simulator), %s', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    fake = await FakeGraph.start({ bot: BOT });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    db = await createTestDatabase(kind);
    const platform = createGraphPlatform(
      { ...fake.config() },
      { dispatcher, bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId } },
    );
    app = await startTestSteward(
      db,
      { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off', ...graphSettings(fake) },
      { platform },
    );
  });
  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  /** The team's conversationMembers as the simulator holds them: user id → roles. */
  const graphMembers = (teamId: string) =>
    new Map((fake.teams.get(teamId)?.members ?? []).map((m) => [m.userId, m.roles]));

  test('a member steps up and becomes a Graph owner; an owner removes a guest from the Graph team', async () => {
    // A team Steward did not make: the tenant default policy (one owner at least) governs it.
    const teamId = fake.addTeam({
      displayName: 'Graph orphans',
      memberIds: [PEOPLE.isaiah],
      guestIds: [GUESTS.zoe.id, GUESTS.jurgen.id],
    });
    const isaiah = await app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    const stepUp = await app.call<OwnershipStepUp>('POST', `/api/v1.0/teams/${teamId}/lifecycle/ownership`, {
      token: isaiah,
    });
    expect(stepUp.status).toBe(202);
    expect(await jobEnded(app, stepUp.body.jobId)).toBe('completed');
    expect(graphMembers(teamId).get(PEOPLE.isaiah)).toEqual(['owner']);

    const review = await app.call<GuestReview>('POST', `/api/v1.0/teams/${teamId}/lifecycle/guestReview`, {
      token: isaiah,
      body: { remove: [GUESTS.zoe.id] },
    });
    expect(review.status).toBe(200);
    expect(review.body.removed).toEqual([GUESTS.zoe]);
    expect(await jobEnded(app, review.body.jobId!)).toBe('completed');
    const left = graphMembers(teamId);
    expect(left.has(GUESTS.zoe.id)).toBe(false);
    expect(left.get(GUESTS.jurgen.id)).toEqual(['guest']);
  });
});
