import type { Agent } from 'undici';
import type { Job, JoinRequest } from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant, quickGraphOptions } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Requests to join a team with Steward on Microsoft Graph (the fake): an approved request adds the
 * member with `POST /teams/{id}/members` (`api/team-post-members.md`), once, and a job run again
 * adds nobody twice; without the permission Graph asks for, the request fails with Graph's refusal.
 */
describe.each(databaseKinds)('join requests on Microsoft Graph (simulator), %s', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;
  let isaiah: string;
  let patti: string;
  let megan: string;
  let team: { id: string; displayName: string };
  const api = '/api/v1.0';

  beforeAll(async () => {
    fake = await FakeGraph.start({ bot: BOT });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    db = await createTestDatabase(kind);
    const platform = createGraphPlatform(
      fake.config(),
      quickGraphOptions(fake, dispatcher, {
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 20, timeoutMs: 10_000 },
      }),
    );
    app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '50', ...graphSettings(fake) }, { platform });
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    isaiah = await app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    patti = await app.userToken(PEOPLE.patti, [], { name: 'Patti Fernandez' });
    megan = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const put = await app.call('PUT', `${api}/catalog/templates/public-club`, {
      token: megan,
      body: { templateConfiguration: { name: 'Public club' }, newTeam: { teamPrivacy: 'public' } },
    });
    expect(put.status).toBe(200);
    const made = await app.call<Job>('POST', `${api}/teams/provisioning`, {
      token: alex,
      body: { template: { id: 'public-club' }, team: { name: 'Chess club' } },
    });
    const job = await waitForJob(app, alex, made.body.id, ['completed', 'failed'], 30_000);
    expect(job.status).toBe('completed');
    team = job.data.team as { id: string; displayName: string };
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  const ask = async (token: string) => {
    const res = await app.call<JoinRequest>('POST', `${api}/teams/${team.id}/joinRequests`, {
      token,
      body: { message: 'May I join?' },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const approve = async (id: string) => {
    const res = await app.call<JoinRequest>('POST', `${api}/joinRequests/${id}/decision`, {
      token: alex,
      body: { decision: 'approve' },
    });
    expect(res.status).toBe(200);
  };
  const settled = async (token: string, id: string): Promise<JoinRequest> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await app.call<JoinRequest>('GET', `${api}/joinRequests/${id}`, { token });
      if (res.body.status === 'joined' || res.body.status === 'failed') return res.body;
      if (Date.now() > deadline) throw new Error(`join request still ${res.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const addCalls = () =>
    fake.requests.filter(
      (r) => r.method === 'POST' && decodeURIComponent(r.path) === `/v1.0/teams/${team.id}/members`,
    ).length;
  const graphMembers = () => fake.teams.get(team.id)!.members.map((m) => m.userId);

  test('approved: Graph adds the member with one POST /teams/{id}/members', async () => {
    const request = await ask(isaiah);
    expect(request.status).toBe('pending');
    const before = addCalls();
    await approve(request.id);
    expect((await settled(isaiah, request.id)).status).toBe('joined');
    expect(addCalls() - before).toBe(1);
    expect(graphMembers()).toContain(PEOPLE.isaiah);
  });

  test('without TeamMember.ReadWrite.All nor TeamMember.ReadWriteNonOwnerRole.All Graph refuses, and the request fails', async () => {
    fake.granted.delete('TeamMember.ReadWrite.All');
    try {
      const request = await ask(patti);
      await approve(request.id);
      const failed = await settled(patti, request.id);
      expect(failed.status).toBe('failed');
      expect(failed.failedReason).toMatch(/403|privileges|forbidden/i);
      expect(graphMembers()).not.toContain(PEOPLE.patti);
      // The least privileged permission is enough to add a member (not an owner).
      fake.granted.add('TeamMember.ReadWriteNonOwnerRole.All');
      const again = await ask(patti);
      await approve(again.id);
      expect((await settled(patti, again.id)).status).toBe('joined');
      expect(graphMembers()).toContain(PEOPLE.patti);
    } finally {
      fake.granted.delete('TeamMember.ReadWriteNonOwnerRole.All');
      fake.granted.add('TeamMember.ReadWrite.All');
    }
  });
});
