import type { DirectoryTeams, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { quickGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { NAMED, suiteSteward, type TestSteward } from '../../support/steward';

/**
 * A template may hide its private teams from search and suggestions
 * (`newTeam.settings.discoverySettings.showInTeamsSearchAndSuggestions`, an extension; Microsoft
 * Graph beta's `teamDiscoverySettings`, default `true`): on the simulated tenant such a team is not
 * in the team directory of people outside it, and on Graph the setting goes to beta's team update.
 */
const api = '/api/v1.0';
const hidden = {
  templateConfiguration: { name: 'Hidden project' },
  newTeam: {
    teamPrivacy: 'private',
    settings: { discoverySettings: { showInTeamsSearchAndSuggestions: false } },
  },
};

async function putTemplates(app: TestSteward, megan: string): Promise<void> {
  const put = (id: string, body: unknown) =>
    app.call('PUT', `${api}/catalog/templates/${id}`, { token: megan, body });
  expect((await put('hidden-project', hidden)).status).toBe(200);
  const plain = { templateConfiguration: { name: 'Listed project' }, newTeam: { teamPrivacy: 'private' } };
  expect((await put('listed-project', plain)).status).toBe(200);
}

async function makeTeam(app: TestSteward, token: string, template: string, name: string) {
  const res = await app.call<Job>('POST', `${api}/teams/provisioning`, {
    token,
    body: { template: { id: template }, team: { name } },
  });
  expect(res.status).toBe(201);
  const job = await waitForJob(app, token, res.body.id, ['completed', 'failed'], 30_000);
  expect(job.status).toBe('completed');
  return job as Job & { data: { team: { id: string } } };
}

describe.each(databaseKinds)('a template that hides its private teams, simulated tenant, %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: NAMED.alex, isaiah: NAMED.isaiah },
  });
  beforeAll(() => putTemplates(suite.app, suite.megan));

  const found = async (token: string, words: string) => {
    const res = await suite.app.call<DirectoryTeams>(
      'GET',
      `${api}/directory/teams?search=${encodeURIComponent(words)}`,
      {
        token,
      },
    );
    expect(res.status).toBe(200);
    return res.body.value.map((t) => t.id);
  };

  test('someone outside the team does not find it in the directory; its members do; the default shows it', async () => {
    const secret = (await makeTeam(suite.app, suite.alex, 'hidden-project', 'Skunkworks')).data.team.id;
    const listed = (await makeTeam(suite.app, suite.alex, 'listed-project', 'Skunkworks Two')).data.team.id;
    const outsider = await found(suite.isaiah, 'Skunkworks');
    expect(outsider).not.toContain(secret);
    expect(outsider).toContain(listed);
    expect(await found(suite.alex, 'Skunkworks')).toEqual(expect.arrayContaining([secret, listed]));
    const team = await suite.app.call<{ discoverySettings: unknown }>('GET', `${api}/teams/${secret}`, {
      token: suite.megan,
    });
    expect(team.status).toBe(200);
    expect(team.body.discoverySettings).toEqual({ showInTeamsSearchAndSuggestions: false });
  });

  test('a public team cannot be hidden: 400 naming the field', async () => {
    const res = await suite.app.call<{ error: { details: Array<{ code: string; target: string }> } }>(
      'PUT',
      `${api}/catalog/templates/hidden-club`,
      { token: suite.megan, body: { ...hidden, newTeam: { ...hidden.newTeam, teamPrivacy: 'public' } } },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      expect.objectContaining({
        code: 'discoveryOfPublicTeam',
        target: 'newTeam.settings.discoverySettings',
      }),
    ]);
  });
});

describe.each(databaseKinds)(
  'a template that hides its private teams, Microsoft Graph (simulator), %s',
  (kind) => {
    const suite = suiteGraphSteward(kind, {
      options: (fake, dispatcher) =>
        quickGraphOptions(fake, dispatcher, {
          retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 20, timeoutMs: 10_000 },
        }),
      env: { STEWARD_JOB_POLL_MS: '50' },
      people: { alex: NAMED.alex },
    });
    beforeAll(() => putTemplates(suite.app, suite.megan));

    test("the setting goes to beta's team update (v1.0's team has none), and the team is hidden", async () => {
      const mark = suite.fake.requests.length;
      const team = (await makeTeam(suite.app, suite.alex, 'hidden-project', 'Skunkworks')).data.team.id;
      expect(suite.fake.teams.get(team)?.settings.discoverySettings).toEqual({
        showInTeamsSearchAndSuggestions: false,
      });
      const sent = suite.fake.requests
        .slice(mark)
        .filter((r) => r.method === 'PATCH' && r.path === `/beta/teams/${team}`);
      expect(sent.map((r) => r.body)).toEqual([
        { discoverySettings: { showInTeamsSearchAndSuggestions: false } },
      ]);
      // A team made from a template that says nothing keeps Teams' default: nothing is sent.
      const before = suite.fake.requests.length;
      await makeTeam(suite.app, suite.alex, 'listed-project', 'Open project');
      expect(suite.fake.requests.slice(before).filter((r) => r.path.startsWith('/beta/'))).toEqual([]);
    });
  },
);
