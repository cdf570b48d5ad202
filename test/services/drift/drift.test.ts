import type { Agent } from 'undici';
import type {
  Job,
  ODataCollection,
  TeamChannel,
  TeamDrift,
  TemplateDriftApplyResult,
  TemplateDriftTeam,
} from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant, WEB_APP, quickGraphOptions } from '../../support/graphTenant';
import { outboxTypes, waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Drift on the embedded platform and on Microsoft Graph (its simulator): what a new version of a
 * template asks for that a team lacks is listed, never what the owners added; applying it adds
 * exactly that, once, however often it is asked.
 */
const platforms = ['embedded', 'graph'] as const;
const cases = databaseKinds.flatMap((db) => platforms.map((p) => [db, p] as const));

describe.each(cases)('template drift, %s, %s platform', (kind, platformKind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let fake: FakeGraph | undefined;
  let dispatcher: Agent | undefined;
  let alex: string;
  let isaiah: string;
  let lynne: string;
  let megan: string;
  let teamId: string;
  const template = `drift-${platformKind}`;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const env = { STEWARD_JOB_POLL_MS: '50' };
    if (platformKind === 'graph') {
      fake = await FakeGraph.start({ bot: BOT });
      dispatcher = fake.dispatcher();
      seedTenant(fake);
      const platform = createGraphPlatform(fake.config(), quickGraphOptions(fake, dispatcher));
      app = await startTestSteward(db, { ...env, ...graphSettings(fake) }, { platform });
    } else {
      app = await startTestSteward(db, env);
    }
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' });
    isaiah = await app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    lynne = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], { name: 'Lynne Robbins' });
    megan = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  const putTemplate = (newTeam: Record<string, unknown>, config: Record<string, unknown> = {}) =>
    app.call('PUT', `/api/v1.0/catalog/templates/${template}`, {
      token: megan,
      body: {
        templateConfiguration: { name: 'Project team', ...config },
        newTeam: { teamPrivacy: 'private', ...newTeam },
      },
    });
  const planning = { displayName: 'Planning', membershipType: 'standard' };
  const channelsOf = async (id: string) =>
    (await app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${id}/channels`, { token: alex })).body;
  const driftOf = (token: string) => app.call<TeamDrift>('GET', `/api/v1.0/teams/${teamId}/drift`, { token });
  const driftJobs = async () =>
    (
      await app.steward.store.db
        .selectFrom('jobs')
        .select('id')
        .where('type', '=', 'TeamDriftApply')
        .execute()
    ).length;

  test('a team made from version 1 remembers it and has no drift', async () => {
    expect((await putTemplate({ channels: [planning] })).status).toBe(200);
    const created = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: {
        template: { id: template },
        team: { name: `Orion ${platformKind}`, membership: { members: [{ id: PEOPLE.isaiah }] } },
      },
    });
    expect(created.status).toBe(201);
    const job = await waitForJob(app, alex, created.body.id);
    expect(job.status).toBe('completed');
    teamId = (job.data.team as { id: string }).id;
    const drift = await driftOf(alex);
    expect(drift.status).toBe(200);
    expect(drift.body).toMatchObject({ madeFromVersion: 1, currentVersion: 1, differences: [] });
  });

  test("drift lists what the new version adds, never the owners' own channel", async () => {
    const own = await app.call('POST', `/api/v1.0/teams/${teamId}/channels`, {
      token: alex,
      body: { displayName: 'Our own corner' },
    });
    expect(own.status).toBe(201);
    expect(
      (
        await putTemplate(
          {
            channels: [planning, { displayName: 'Deliverables', membershipType: 'private' }],
            tabs: [
              {
                channel: 'Planning',
                displayName: 'Wiki',
                teamsAppId: WEB_APP,
                configuration: { contentUrl: 'https://contoso.example/wiki' },
              },
            ],
          },
          { permanentMembership: { owners: [{ id: PEOPLE.adele }], members: [] } },
        )
      ).status,
    ).toBe(200);
    const drift = await driftOf(alex);
    expect(drift.body.madeFromVersion).toBe(1);
    expect(drift.body.currentVersion).toBe(2);
    expect(drift.body.differences.map((d) => [d.kind, d.name, d.applicable])).toEqual([
      ['channel', 'Deliverables', true],
      ['tab', 'Wiki (Planning)', true],
      ['permanentOwner', 'Adele Vance', true],
    ]);
    expect(JSON.stringify(drift.body)).not.toContain('Our own corner');
  });

  test('a member who is not an owner is refused; outsiders do not learn of the team; plain users see no template drift', async () => {
    expect((await driftOf(isaiah)).status).toBe(403);
    const outsider = await app.userToken(PEOPLE.patti, []);
    expect((await driftOf(outsider)).status).toBe(404);
    expect(
      (await app.call('POST', `/api/v1.0/teams/${teamId}/drift/apply`, { token: isaiah, body: {} })).status,
    ).toBe(403);
    expect(
      (await app.call('GET', `/api/v1.0/catalog/templates/${template}/drift`, { token: alex })).status,
    ).toBe(403);
    expect((await driftOf(lynne)).status).toBe(200);
  });

  test("the template's teams are listed with their counts; a dry run makes no job", async () => {
    const listed = await app.call<ODataCollection<TemplateDriftTeam>>(
      'GET',
      `/api/v1.0/catalog/templates/${template}/drift`,
      { token: lynne },
    );
    expect(listed.status).toBe(200);
    expect(listed.body['@odata.count']).toBe(1);
    expect(listed.body.value).toEqual([
      expect.objectContaining({
        teamId,
        differences: 3,
        applicable: 3,
        kinds: { channel: 1, tab: 1, permanentOwner: 1 },
      }),
    ]);
    const preview = await app.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${template}/drift/apply`,
      { token: lynne, body: { dryRun: true } },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.teams).toEqual([expect.objectContaining({ teamId, outcome: 'job' })]);
    expect(preview.body.teams[0]!.differences).toHaveLength(3);
    expect(await driftJobs()).toBe(0);
  });

  test("the lifecycle evaluator's pass notes the team behind its template", async () => {
    const queued = await app.call<Job>('POST', '/api/v1.0/lifecycle/evaluations', { token: lynne });
    expect(queued.status).toBe(202);
    const job = await waitForJob(app, lynne, queued.body.id);
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toContain('1 team differs from the current version of its template.');
    const row = await app.steward.store.db
      .selectFrom('team_templates')
      .select(['outdated', 'template_version'])
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ outdated: 1, template_version: 1 });
  });

  test('bad input is a 400 naming the problem, never a 500', async () => {
    const bad = async (path: string, body: unknown) => {
      const res = await app.call<{ error: { code: string; message: string } }>('POST', path, {
        token: lynne,
        body,
      });
      expect(res.status).toBe(400);
      return res.body.error;
    };
    await bad(`/api/v1.0/teams/${teamId}/drift/apply`, { differences: [] });
    await bad(`/api/v1.0/teams/${teamId}/drift/apply`, { differences: 'all' });
    expect(
      (await bad(`/api/v1.0/teams/${teamId}/drift/apply`, { differences: ['channel:nowhere'] })).message,
    ).toMatch(/cannot be applied/);
    await bad(`/api/v1.0/catalog/templates/${template}/drift/apply`, { dryRun: 'perhaps' });
    await bad(`/api/v1.0/teams/${teamId}/drift/answer`, { answer: 'maybe' });
    expect(
      (await app.call('GET', `/api/v1.0/catalog/templates/${template}/drift?$top=0`, { token: lynne }))
        .status,
    ).toBe(400);
    expect(await driftJobs()).toBe(0);
  });

  test('applying adds what the template asks for, once: no drift left, no duplicate, however often', async () => {
    const applied = await app.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${template}/drift/apply`,
      { token: lynne, body: {} },
    );
    expect(applied.status).toBe(202);
    expect(applied.body.teams).toEqual([
      expect.objectContaining({ teamId, outcome: 'job', jobId: expect.any(String) }),
    ]);
    const job = await waitForJob(app, lynne, applied.body.teams[0]!.jobId!);
    expect(job.status).toBe('completed');
    expect(job.type).toBe('TeamDriftApply');
    expect(job.log.join('\n')).toContain('Created the channel "Deliverables".');
    expect((await driftOf(alex)).body.differences).toEqual([]);

    // Once more for the team, all of it: the job compares again and finds nothing to add.
    const again = await app.call<Job>('POST', `/api/v1.0/teams/${teamId}/drift/apply`, {
      token: alex,
      body: {},
    });
    expect(again.status).toBe(202);
    expect((await waitForJob(app, alex, again.body.id)).status).toBe('completed');
    // And for the template: the team meets its current version, so nothing is queued.
    const third = await app.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${template}/drift/apply`,
      { token: lynne, body: {} },
    );
    expect(third.body.teams).toEqual([]);

    const channels = (await channelsOf(teamId)).map((c) => c.displayName).sort();
    expect(channels).toEqual(['Deliverables', 'General', 'Our own corner', 'Planning']);
    const planningId = (await channelsOf(teamId)).find((c) => c.displayName === 'Planning')!.id;
    const tabs = await app.call<Array<{ displayName: string }>>(
      'GET',
      `/api/v1.0/teams/${teamId}/channels/${planningId}/tabs`,
      { token: alex },
    );
    expect(tabs.body.filter((t) => t.displayName === 'Wiki')).toHaveLength(1);
    const members = await app.call<Array<{ userId: string; roles: string[] }>>(
      'GET',
      `/api/v1.0/teams/${teamId}/members`,
      { token: alex },
    );
    expect(members.body.find((m) => m.userId === PEOPLE.adele)?.roles).toEqual(['owner']);
    expect(await outboxTypes(app)).toEqual(expect.arrayContaining(['team_drift_applied']));
    const records = await app.steward.store.db
      .selectFrom('audit_records')
      .select('action')
      .where('action', 'in', ['drift_apply_requested', 'drift_applied'])
      .execute();
    expect(records.map((r) => r.action).sort()).toEqual([
      'drift_applied',
      'drift_applied',
      'drift_apply_requested',
      'drift_apply_requested',
    ]);
  });
});
