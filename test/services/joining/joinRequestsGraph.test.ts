import type { Job, JoinRequest } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { quickGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { NAMED, PEOPLE } from '../../support/steward';

/**
 * Requests to join a team with Steward on Microsoft Graph (the fake): an approved request adds the
 * member with `POST /teams/{id}/members` (`api/team-post-members.md`), once, and a job run again
 * adds nobody twice; without the permission Graph asks for, the request fails with Graph's refusal.
 */
describe.each(databaseKinds)('join requests on Microsoft Graph (simulator), %s', (kind) => {
  let team: { id: string; displayName: string };
  const api = '/api/v1.0';

  const suite = suiteGraphSteward(kind, {
    options: (fake, dispatcher) =>
      quickGraphOptions(fake, dispatcher, {
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 20, timeoutMs: 10_000 },
      }),
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: NAMED.alex, isaiah: NAMED.isaiah, patti: NAMED.patti },
  });
  beforeAll(async () => {
    const put = await suite.app.call('PUT', `${api}/catalog/templates/public-club`, {
      token: suite.megan,
      body: { templateConfiguration: { name: 'Public club' }, newTeam: { teamPrivacy: 'public' } },
    });
    expect(put.status).toBe(200);
    const made = await suite.app.call<Job>('POST', `${api}/teams/provisioning`, {
      token: suite.alex,
      body: { template: { id: 'public-club' }, team: { name: 'Chess club' } },
    });
    const job = await waitForJob(suite.app, suite.alex, made.body.id, ['completed', 'failed'], 30_000);
    expect(job.status).toBe('completed');
    team = job.data.team as { id: string; displayName: string };
  });

  const ask = async (token: string) => {
    const res = await suite.app.call<JoinRequest>('POST', `${api}/teams/${team.id}/joinRequests`, {
      token,
      body: { message: 'May I join?' },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const approve = async (id: string) => {
    const res = await suite.app.call<JoinRequest>('POST', `${api}/joinRequests/${id}/decision`, {
      token: suite.alex,
      body: { decision: 'approve' },
    });
    expect(res.status).toBe(200);
  };
  const settled = async (token: string, id: string): Promise<JoinRequest> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await suite.app.call<JoinRequest>('GET', `${api}/joinRequests/${id}`, { token });
      if (res.body.status === 'joined' || res.body.status === 'failed') return res.body;
      if (Date.now() > deadline) throw new Error(`join request still ${res.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const addCalls = () =>
    suite.fake.requests.filter(
      (r) => r.method === 'POST' && decodeURIComponent(r.path) === `/v1.0/teams/${team.id}/members`,
    ).length;
  const graphMembers = () => suite.fake.teams.get(team.id)!.members.map((m) => m.userId);

  test('approved: Graph adds the member with one POST /teams/{id}/members', async () => {
    const request = await ask(suite.isaiah);
    expect(request.status).toBe('pending');
    const before = addCalls();
    await approve(request.id);
    expect((await settled(suite.isaiah, request.id)).status).toBe('joined');
    expect(addCalls() - before).toBe(1);
    expect(graphMembers()).toContain(PEOPLE.isaiah);
  });

  test('without TeamMember.ReadWrite.All nor TeamMember.ReadWriteNonOwnerRole.All Graph refuses, and the request fails', async () => {
    suite.fake.granted.delete('TeamMember.ReadWrite.All');
    try {
      const request = await ask(suite.patti);
      await approve(request.id);
      const failed = await settled(suite.patti, request.id);
      expect(failed.status).toBe('failed');
      expect(failed.failedReason).toMatch(/403|privileges|forbidden/i);
      expect(graphMembers()).not.toContain(PEOPLE.patti);
      // The least privileged permission is enough to add a member (not an owner).
      suite.fake.granted.add('TeamMember.ReadWriteNonOwnerRole.All');
      const again = await ask(suite.patti);
      await approve(again.id);
      expect((await settled(suite.patti, again.id)).status).toBe('joined');
      expect(graphMembers()).toContain(PEOPLE.patti);
    } finally {
      suite.fake.granted.delete('TeamMember.ReadWriteNonOwnerRole.All');
      suite.fake.granted.add('TeamMember.ReadWrite.All');
    }
  });
});
