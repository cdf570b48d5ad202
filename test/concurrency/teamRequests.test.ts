import type { Job, TeamChannel } from '../../src/contract';
import { SEED_LABEL_IDS } from '../../src/store/seed/directory';
import { databaseKinds } from '../support/databases';
import { waitForJob } from '../support/jobs';
import { putLabelledTemplates } from '../support/labelledTemplates';
import { provisionTeam } from '../support/lifecycle';
import { PEOPLE, suiteSteward } from '../support/steward';
import { answers, expectOneAfterAnother, type RaceCase, runRace } from './races';

const WEB_APP = 'com.microsoft.teamspace.tab.web';
const api = '/api/v1.0';

/**
 * The operations on existing teams, their metadata, the catalog's permanent membership, webhooks
 * and sensitivity labels, fired AT_ONCE times at once on SQLite and PostgreSQL: the requests at
 * once must answer and do what the same requests do one after another (races.ts). What "one
 * effect" means for each is said in its case.
 */
describe.each(databaseKinds)('identical requests at once on teams and the catalog, on %s', (kind) => {
  const token: Record<string, string> = {};
  const teams: Record<string, string[]> = {};

  const call = (method: string, path: string, who: string, body?: unknown) =>
    suite.app.call(method, `${api}${path}`, { token: token[who], body });
  const put = async (path: string, who: string, body: unknown) => {
    const res = await call('PUT', path, who, body);
    if (res.status !== 200) throw new Error(`PUT ${path}: ${res.status} ${res.text}`);
  };
  /** A team of `labelled-approved` (Adele approves), made without its label: the owner's to apply. */
  const unlabelled = async (name: string) => {
    const res = await call('POST', '/teams/provisioning', 'alex', {
      template: { id: 'labelled-approved' },
      team: { name },
    });
    const approval = ((res.body as Job).data.approval as { id: string }).id;
    await call('POST', `/approvals/${approval}/approve`, 'adele', {});
    const job = await waitForJob(suite.app, token.alex!, (res.body as Job).id);
    return (job.data.team as { id: string }).id;
  };

  const suite = suiteSteward(kind, { env: { STEWARD_JOB_POLL_MS: '50' } });
  beforeAll(async () => {
    token.alex = await suite.app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    token.adele = await suite.app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
    token.megan = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
    token.integrator = await suite.app.appToken('race-integrator', ['INTEGRATION_MANAGER']);
    await putLabelledTemplates(suite.app, token.megan, SEED_LABEL_IDS.general);
    const templates = [0, 1].map((k) =>
      put(`/catalog/templates/race-people-${k}`, 'megan', { templateConfiguration: { name: `People ${k}` } }),
    );
    const [plain, labelled] = await Promise.all([
      Promise.all(
        Array.from({ length: 12 }, (_, i) => provisionTeam(suite.app, 'project', `Race team ${i}`)),
      ),
      Promise.all([0, 1].map((k) => unlabelled(`Unlabelled ${k}`))),
      ...templates,
    ]);
    Object.assign(teams, { plain, labelled });
  }, 60_000);

  /** Subject k of the plain teams from `offset`: each case takes two teams of its own. */
  const team =
    (list: string, offset = 0) =>
    async (k: number) =>
      teams[list]![offset + k]!;
  const generalOf = (offset: number) => async (k: number) => {
    const teamId = teams.plain![offset + k]!;
    const general = await call('GET', `/teams/${teamId}/channels/primary`, 'alex');
    return `${teamId}|${(general.body as TeamChannel).id}`;
  };
  const newHook = async (k: number) => {
    const res = await call('POST', '/hooks', 'integrator', {
      name: `Race hook ${k}`,
      events: ['team_created'],
      config: { url: 'http://127.0.0.1:9/steward-hook' },
    });
    return (res.body as { id: string }).id;
  };

  const cases: RaceCase[] = [
    {
      // Idempotent: the same settings each time; each change is made and recorded, as one after another.
      name: "changing a team's settings",
      answers: answers(204),
      mode: 'serial',
      subject: team('plain', 0),
      request: (id) => call('PATCH', `/teams/${id}`, 'megan', { description: 'Raced', visibility: 'public' }),
    },
    {
      // One membership whatever the number of adds (the platform's add is an upsert, as Graph's
      // is); each add the platform answered is recorded.
      name: 'adding the same member',
      answers: answers(201),
      mode: 'serial',
      subject: team('plain', 2),
      request: (id) => call('POST', `/teams/${id}/members`, 'alex', { user: { id: PEOPLE.isaiah } }),
    },
    {
      // One channel: the platform refuses a second of the same name (409), recorded as a failure.
      name: 'creating a channel of one name',
      answers: answers(201, 409),
      mode: 'serial',
      subject: team('plain', 4),
      request: (id) => call('POST', `/teams/${id}/channels`, 'alex', { displayName: 'Raced' }),
    },
    {
      // Graph gives tabs no unique name: each request adds a tab, and none is lost or doubled.
      name: 'adding a tab',
      answers: answers(201),
      mode: 'serial',
      subject: generalOf(6),
      request: (subject) => {
        const [teamId, channelId] = subject.split('|');
        return call('POST', `/teams/${teamId}/channels/${channelId}/tabs`, 'alex', {
          displayName: 'Raced',
          teamsAppId: WEB_APP,
          configuration: { contentUrl: 'https://contoso.example/raced' },
        });
      },
    },
    {
      name: "merging into a team's metadata",
      answers: answers(200),
      mode: 'serial',
      subject: team('plain', 8),
      request: (id) =>
        call('PATCH', `/teams/${id}/metadata/finance`, 'megan', { owner: { costCenter: 'CC-7' } }),
    },
    {
      // Each PUT saves a version, as one after another; the template row stays one.
      name: "replacing a template's permanent membership",
      answers: answers(200),
      mode: 'serial',
      subject: async (k) => `race-people-${k}`,
      request: (id) =>
        call('PUT', `/catalog/templates/${id}/permanent_membership`, 'megan', {
          owners: [{ id: PEOPLE.adele }],
          members: [{ id: PEOPLE.isaiah }],
        }),
    },
    {
      name: "replacing a template's permanent owners",
      answers: answers(200),
      mode: 'serial',
      subject: async (k) => `race-people-${k}`,
      request: (id) =>
        call('PUT', `/catalog/templates/${id}/permanent_membership/owners`, 'megan', [{ id: PEOPLE.megan }]),
    },
    {
      // Applied once: the first owner's press records it, the others are told it is on.
      name: 'applying a sensitivity label',
      answers: answers(200),
      mode: 'serial',
      subject: team('labelled'),
      request: (id) => call('POST', `/teams/${id}/sensitivityLabel`, 'alex'),
    },
    {
      name: 'deleting a webhook',
      answers: answers(200, 404),
      mode: 'once',
      subject: newHook,
      request: (id) => call('DELETE', `/hooks/${id}`, 'integrator'),
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, race) => {
    expectOneAfterAnother(race, await runRace(suite.app, race));
  });
});
