import type { Job, JoinRequest } from '../../src/contract';
import { databaseKinds } from '../support/databases';
import { waitForJob } from '../support/jobs';
import { lifecycleTemplate, provisionTeam } from '../support/lifecycle';
import { PEOPLE, suiteSteward } from '../support/steward';
import { expectOneAfterAnother, type RaceCase, runRace } from './races';

const SIOBHAN = '00000000-0000-0000-0000-000000000034';
const ZOE = '00000000-0000-0000-0000-000000000026';
const WEB_APP = 'com.microsoft.teamspace.tab.web';
const api = '/api/v1.0';

/**
 * Every mutating operation fired AT_ONCE times at once, on SQLite and on PostgreSQL (several
 * connections, as several processes on one database are): the requests at once must answer and do
 * exactly what the same requests do one after another. A second identical request gets the first
 * one's answer or a 409, never a second effect and never a 500; the database decides which one
 * wins (a unique index, one pending job of a kind per team, a row lock), not a read before the write.
 */
describe.each(databaseKinds)('identical requests at once, on %s', (kind) => {
  const token: Record<string, string> = {};
  const teams: Record<string, string[]> = {};

  const call = (
    method: string,
    path: string,
    who: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => suite.app.call(method, `${api}${path}`, { token: token[who], body, headers });
  const put = async (path: string, who: string, body: unknown) => {
    const res = await call('PUT', path, who, body);
    if (res.status !== 200) throw new Error(`PUT ${path}: ${res.status} ${res.text}`);
  };
  const driftTemplate = (id: string, v2: boolean, config: Record<string, unknown> = {}) =>
    put(`/catalog/templates/${id}`, 'megan', {
      templateConfiguration: { name: id, ...config },
      newTeam: {
        teamPrivacy: config.allowDirectJoin ? 'public' : 'private',
        channels: [{ displayName: 'Planning' }],
        ...(v2
          ? {
              tabs: [
                {
                  channel: 'Planning',
                  displayName: 'Wiki',
                  teamsAppId: WEB_APP,
                  configuration: { contentUrl: 'https://contoso.example/wiki' },
                },
              ],
              tags: [{ displayName: 'Leads', members: 'owners' }],
            }
          : {}),
      },
    });
  const made = (template: string, n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => provisionTeam(suite.app, template, `${template} ${i}`)));
  /** A request for a Client engagement team, waiting for Adele or Siobhán; its job and approval. */
  const waitingRequest = async (template = 'client-engagement') => {
    const res = await call('POST', '/teams/provisioning', 'alex', {
      template: { id: template },
      team: { name: `Waiting ${Math.random().toString(36).slice(2, 8)}` },
    });
    if (res.status !== 201) throw new Error(`provisioning: ${res.status} ${res.text}`);
    const job = res.body as Job;
    return { jobId: job.id, approvalId: (job.data.approval as { id: string }).id };
  };

  const suite = suiteSteward(kind, { env: { STEWARD_JOB_POLL_MS: '50' } });
  beforeAll(async () => {
    const people = { alex: 'Alex Wilber', adele: 'Adele Vance', isaiah: 'Isaiah Langer' };
    for (const [who, name] of Object.entries(people))
      token[who] = await suite.app.userToken(PEOPLE[who as keyof typeof people], [], { name });
    token.siobhan = await suite.app.userToken(SIOBHAN, [], { name: "Siobhán O'Connor" });
    token.zoe = await suite.app.userToken(ZOE, [], { name: 'Zoé Lefèvre' });
    token.lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], { name: 'Lynne Robbins' });
    token.megan = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
    token.integrator = await suite.app.appToken('race-integrator', ['INTEGRATION_MANAGER']);
    await Promise.all([
      driftTemplate('race-drift', false),
      driftTemplate('race-wide-0', false),
      driftTemplate('race-wide-1', false),
      driftTemplate('race-club', false, { allowDirectJoin: true }),
      put('/catalog/templates/race-public', 'megan', {
        templateConfiguration: { name: 'Public, owners decide' },
        newTeam: { teamPrivacy: 'public' },
      }),
      lifecycleTemplate(suite.app, 'race-yearly', {
        expiration: { enabled: true, days: 365, onExpiry: 'none' },
      }),
    ]);
    const [drift, wide0, wide1, club, open, plain, yearly] = await Promise.all([
      made('race-drift', 2),
      made('race-wide-0', 2),
      made('race-wide-1', 2),
      made('race-club', 1),
      made('race-public', 2),
      made('project', 8),
      made('race-yearly', 2),
    ]);
    Object.assign(teams, { drift, wide0, wide1, club, open, plain, yearly });
    await Promise.all(['race-drift', 'race-wide-0', 'race-wide-1'].map((id) => driftTemplate(id, true)));
  }, 60_000);

  /** Subject k of a list of teams prepared above. */
  const team =
    (list: string, offset = 0) =>
    async (k: number) =>
      teams[list]![offset + k]!;
  const archived = async (k: number) => {
    const id = teams.plain![2 + k]!;
    const res = await call('POST', `/teams/${id}/archive`, 'alex', {});
    await waitForJob(suite.app, token.alex!, (res.body as Job).id);
    return id;
  };
  const pendingJoin = async (k: number) => {
    const res = await call('POST', `/teams/${teams.open![1]}/joinRequests`, k ? 'zoe' : 'siobhan', {});
    return (res.body as JoinRequest).id;
  };
  const [asker0, asker1] = ['adele', 'isaiah'];
  const asker = (list: string) => async (k: number) => `${teams[list]![0]}|${k ? asker1 : asker0}`;
  const joinAs = (subject: string) => {
    const [teamId, who] = subject.split('|');
    return call('POST', `/teams/${teamId}/joinRequests`, who!, { message: 'Count me in' });
  };

  const cases: RaceCase[] = [
    {
      name: "drift apply on one team (an owner's double press)",
      mode: 'once',
      subject: team('drift'),
      request: (id) => call('POST', `/teams/${id}/drift/apply`, 'alex', {}),
    },
    {
      name: "drift apply on a template's teams (two governance managers)",
      mode: 'once',
      subject: async (k) => `race-wide-${k}`,
      request: (id) => call('POST', `/catalog/templates/${id}/drift/apply`, 'lynne', {}),
    },
    { name: 'a direct join of a public team', mode: 'once', subject: asker('club'), request: joinAs },
    { name: 'a request to join a team', mode: 'once', subject: asker('open'), request: joinAs },
    {
      name: "the owners' decision on a request to join",
      mode: 'once',
      subject: pendingJoin,
      request: (id) => call('POST', `/joinRequests/${id}/decision`, 'alex', { decision: 'approve' }),
    },
    {
      name: 'archiving a team',
      mode: 'once',
      subject: team('plain', 0),
      request: (id) => call('POST', `/teams/${id}/archive`, 'alex', {}),
    },
    {
      name: 'unarchiving a team',
      mode: 'once',
      subject: archived,
      request: (id) => call('POST', `/teams/${id}/unarchive`, 'alex'),
    },
    {
      name: 'deleting a team',
      mode: 'once',
      subject: team('plain', 4),
      request: (id) => call('DELETE', `/teams/${id}`, 'alex'),
    },
    {
      name: 'approving a request',
      mode: 'once',
      subject: async () => (await waitingRequest()).approvalId,
      request: (id) => call('POST', `/approvals/${id}/approve`, 'adele', {}),
    },
    {
      name: 'rejecting a request',
      mode: 'once',
      subject: async () => (await waitingRequest()).approvalId,
      request: (id) => call('POST', `/approvals/${id}/reject`, 'siobhan', { message: 'No' }),
    },
    {
      name: 'withdrawing a request',
      mode: 'once',
      subject: async () => (await waitingRequest()).jobId,
      request: (id) => call('POST', `/jobs/${id}/withdraw`, 'alex'),
    },
    {
      name: 'requesting a team with one Idempotency-Key',
      mode: 'once',
      subject: async (k) => `race-key-${kind}-${k}`,
      request: (key) =>
        call(
          'POST',
          '/teams/provisioning',
          'alex',
          { template: { id: 'project' }, team: { name: key } },
          {
            'idempotency-key': key,
          },
        ),
    },
    {
      name: 'renewing a team',
      mode: 'serial',
      subject: team('yearly'),
      request: (id) => call('POST', `/teams/${id}/lifecycle/renew`, 'alex'),
    },
    {
      name: "putting a team's metadata",
      mode: 'serial',
      subject: team('plain', 6),
      request: (id) => call('PUT', `/teams/${id}/metadata/finance`, 'megan', { costCenter: 'CC-42' }),
    },
    {
      name: 'saving a new template under one id',
      mode: 'serial',
      subject: async (k) => `race-new-${k}`,
      request: (id) =>
        call('PUT', `/catalog/templates/${id}`, 'megan', { templateConfiguration: { name: 'Brand new' } }),
    },
    {
      // Last: once a hook exists, every event queues a delivery.
      name: 'creating a webhook',
      mode: 'serial',
      subject: async (k) => `Race feed ${k}`,
      request: (name) =>
        call('POST', '/hooks', 'integrator', {
          name,
          events: ['team_created'],
          config: { url: 'http://127.0.0.1:9/steward-hook' },
        }),
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, race) => {
    expectOneAfterAnother(race, await runRace(suite.app, race));
  });
});
