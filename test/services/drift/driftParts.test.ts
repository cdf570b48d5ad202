import type { Agent } from 'undici';
import type { Job, Team, TeamChannel, TeamDrift } from '../../../src/contract';
import { EmbeddedTeams } from '../../../src/platform/embedded';
import { createGraphPlatform } from '../../../src/platform/graph';
import type { TeamsPlatform } from '../../../src/platform/port';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant, WEB_APP, quickGraphOptions } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Drift of a workspace template's parts (docs/guides/templates.md), on the embedded platform and on Microsoft Graph
 * (its simulator): a template that gains a channel and a plan bucket after a team was made from it
 * lists both as the team's drift; applying brings both in, once, however often it is asked; a
 * bucket or a tag the owners added is theirs and never listed.
 */
const platforms = ['embedded', 'graph'] as const;
const cases = databaseKinds.flatMap((db) => platforms.map((p) => [db, p] as const));

describe.each(cases)('drift of plans, tags, apps and settings, %s, %s platform', (kind, platformKind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let fake: FakeGraph | undefined;
  let dispatcher: Agent | undefined;
  /** The platform as the team's owners reach it, beside Steward (Teams' own client, as it were). */
  let owners: TeamsPlatform;
  let alex: string;
  let megan: string;
  let teamId: string;
  const template = `parts-${platformKind}`;
  const plan = 'Delivery plan';

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const env = { STEWARD_JOB_POLL_MS: '50' };
    if (platformKind === 'graph') {
      fake = await FakeGraph.start({ bot: BOT });
      dispatcher = fake.dispatcher();
      seedTenant(fake);
      const platform = createGraphPlatform(fake.config(), quickGraphOptions(fake, dispatcher));
      owners = platform.teams;
      app = await startTestSteward(db, { ...env, ...graphSettings(fake) }, { platform });
    } else {
      app = await startTestSteward(db, env);
      owners = new EmbeddedTeams(app.steward.store.db, {
        publicUrl: () => 'http://127.0.0.1',
        latencyMs: 0,
        faults: [],
      });
    }
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' });
    megan = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  const backlog = { name: 'Backlog', tasks: [{ title: 'Write the charter' }] };
  const review = { name: 'Review', tasks: [{ title: 'Review the charter', checklist: ['Scope', 'Budget'] }] };
  const leads = { displayName: 'Leads', members: 'owners' };
  const crew = { displayName: 'Crew', members: 'members' };
  const putTemplate = async (newTeam: Record<string, unknown>) => {
    const res = await app.call('PUT', `/api/v1.0/catalog/templates/${template}`, {
      token: megan,
      body: {
        templateConfiguration: { name: 'Delivery team' },
        newTeam: { teamPrivacy: 'private', ...newTeam },
      },
    });
    expect(res.status).toBe(200);
  };
  const driftOf = async () => {
    const res = await app.call<TeamDrift>('GET', `/api/v1.0/teams/${teamId}/drift`, { token: alex });
    expect(res.status).toBe(200);
    return res.body;
  };
  const apply = async () => {
    const res = await app.call<Job>('POST', `/api/v1.0/teams/${teamId}/drift/apply`, {
      token: alex,
      body: {},
    });
    expect(res.status).toBe(202);
    const job = await waitForJob(app, alex, res.body.id);
    expect(job.status).toBe('completed');
    return job;
  };
  const channelNames = async () =>
    (await app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, { token: alex })).body
      .map((c) => c.displayName)
      .sort();
  /** The plans and their buckets' names as the platform holds them (the fake Graph's own records). */
  const planOnPlatform = async () => {
    if (fake) {
      const plans = [...fake.workspace.plans.values()].filter((p) => p.groupId === teamId);
      const ids = new Set(plans.map((p) => p.id));
      const buckets = [...fake.workspace.buckets.values()].filter((b) => ids.has(b.planId));
      const tasks = [...fake.workspace.tasks.values()].filter((t) => ids.has(t.planId));
      return { plans: plans.length, buckets: buckets.map((b) => b.name).sort(), tasks: tasks.length };
    }
    const count = async (table: 'platform_plans' | 'platform_plan_tasks') =>
      (await app.steward.store.db.selectFrom(table).select('id').where('team_id', '=', teamId).execute())
        .length;
    const buckets = await app.steward.store.db
      .selectFrom('platform_plan_buckets')
      .select('name')
      .where('team_id', '=', teamId)
      .execute();
    return {
      plans: await count('platform_plans'),
      buckets: buckets.map((b) => b.name).sort(),
      tasks: await count('platform_plan_tasks'),
    };
  };

  test('a team made from the template has its plan and tag, and no drift', async () => {
    await putTemplate({
      channels: [{ displayName: 'Planning' }],
      planner: { title: plan, buckets: [backlog] },
      tags: [leads],
    });
    const created = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: {
        template: { id: template },
        team: { name: `Vega ${platformKind}`, membership: { members: [{ id: PEOPLE.isaiah }] } },
      },
    });
    expect(created.status).toBe(201);
    const job = await waitForJob(app, alex, created.body.id);
    expect(job.status).toBe('completed');
    teamId = (job.data.team as { id: string }).id;
    expect(await planOnPlatform()).toEqual({ plans: 1, buckets: ['Backlog'], tasks: 1 });
    expect((await driftOf()).differences).toEqual([]);
  });

  test("a bucket or a tag the owners added is never listed; the template's new tag is", async () => {
    const [found] = await owners.workspace.listPlans(teamId);
    await owners.workspace.createBucket(found!.id, 'Our ideas');
    await owners.workspace.createTag(teamId, { displayName: 'Night shift', memberIds: [PEOPLE.isaiah] });
    await putTemplate({
      channels: [{ displayName: 'Planning' }],
      planner: { title: plan, buckets: [backlog] },
      tags: [leads, crew],
    });
    const drift = await driftOf();
    expect(drift.differences.map((d) => [d.kind, d.name, d.applicable])).toEqual([['tag', 'Crew', true]]);
    expect(JSON.stringify(drift)).not.toMatch(/Our ideas|Night shift/);
  });

  test('the template gains a channel and a bucket: drift lists both, applying brings them in once', async () => {
    await putTemplate({
      channels: [{ displayName: 'Planning' }, { displayName: 'Releases' }],
      planner: { title: plan, buckets: [backlog, review] },
      tags: [leads, crew],
    });
    const drift = await driftOf();
    expect(drift.currentVersion).toBe(3);
    expect(drift.differences.map((d) => [d.kind, d.name, d.applicable])).toEqual([
      ['channel', 'Releases', true],
      ['planBucket', 'Review', true],
      ['tag', 'Crew', true],
    ]);
    expect(drift.differences[1]!.detail).toBe(
      `The template's plan has a bucket "Review" that the team's plan "${plan}" lacks; its task comes with it.`,
    );

    const job = await apply();
    expect(job.log).toContain('Created the channel "Releases".');
    expect(job.log).toContain('Made the tag Crew (1 person).');
    expect(job.log).toContain(`Found the plan "${plan}" and added 1 bucket, 1 task and 2 checklist items.`);
    expect((await driftOf()).differences).toEqual([]);

    // Again: the job compares anew, finds nothing, and makes nothing.
    const again = await apply();
    expect(again.log.join('\n')).not.toMatch(/Created|added/);
    expect((await driftOf()).differences).toEqual([]);

    expect(await channelNames()).toEqual(['General', 'Planning', 'Releases']);
    // The owners' bucket and tag are still there, untouched; nothing is twice.
    expect(await planOnPlatform()).toEqual({
      plans: 1,
      buckets: ['Backlog', 'Our ideas', 'Review'],
      tasks: 2,
    });
    const tags = (await owners.workspace.listTags(teamId)).map((t) => t.displayName).sort();
    expect(tags).toEqual(['Crew', 'Leads', 'Night shift']);
    const nightShift = (await owners.workspace.listTags(teamId)).find(
      (t) => t.displayName === 'Night shift',
    )!;
    expect(await owners.workspace.listTagMembers(teamId, nightShift.id)).toEqual([PEOPLE.isaiah]);
  });

  test('a setting the team contradicts and a missing app: listed, applied, only that setting changed', async () => {
    const teamOf = async () => {
      const res = await app.call<Team>('GET', `/api/v1.0/teams/${teamId}`, { token: megan });
      expect(res.status).toBe(200);
      return res.body;
    };
    const before = await teamOf();
    const wanted = !before.messagingSettings.allowUserEditMessages;
    await putTemplate({
      channels: [{ displayName: 'Planning' }, { displayName: 'Releases' }],
      planner: { title: plan, buckets: [backlog, review] },
      tags: [leads, crew],
      apps: [{ teamsAppId: WEB_APP, displayName: 'Website' }],
      settings: { messagingSettings: { allowUserEditMessages: wanted } },
    });
    const drift = await driftOf();
    expect(drift.differences.map((d) => [d.kind, d.name, d.applicable])).toEqual([
      ['app', 'Website', true],
      ['teamSetting', 'Allow user edit messages (messaging settings)', true],
    ]);
    const job = await apply();
    expect(job.log).toContain('Installed the app "Website".');
    expect((await driftOf()).differences).toEqual([]);
    const after = await teamOf();
    expect(after.messagingSettings).toEqual({ ...before.messagingSettings, allowUserEditMessages: wanted });
    for (const group of ['memberSettings', 'guestSettings', 'funSettings', 'discoverySettings'] as const)
      expect(after[group]).toEqual(before[group]);
    expect(await owners.workspace.listInstalledApps(teamId)).toEqual(expect.arrayContaining([WEB_APP]));
    expect((await owners.workspace.listInstalledApps(teamId)).filter((a) => a === WEB_APP)).toHaveLength(1);
    // Again: nothing left to do.
    const again = await apply();
    expect(again.log.join('\n')).not.toMatch(/Installed|Set /);
  });

  test('a missing shared channel is made through the channel path, owned by an owner of the team', async () => {
    await putTemplate({
      channels: [
        { displayName: 'Planning' },
        { displayName: 'Releases' },
        { displayName: 'Partners', membershipType: 'shared' },
      ],
      planner: { title: plan, buckets: [backlog, review] },
      tags: [leads, crew],
      apps: [{ teamsAppId: WEB_APP, displayName: 'Website' }],
    });
    const drift = await driftOf();
    expect(drift.differences).toEqual([
      expect.objectContaining({
        kind: 'channel',
        name: 'Partners',
        applicable: true,
        detail: 'The template has a shared channel "Partners" that the team lacks.',
      }),
    ]);
    const job = await apply();
    expect(job.log).toContain('Created the channel "Partners".');
    expect((await driftOf()).differences).toEqual([]);
    await apply();
    const channels = (
      await app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, { token: alex })
    ).body;
    expect(channels.filter((c) => c.displayName === 'Partners')).toEqual([
      expect.objectContaining({ membershipType: 'shared' }),
    ]);
    expect(channels).toHaveLength(4);
  });

  test('missing folders and starter files are made; a file already there is never overwritten', async () => {
    const channels = (
      await app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, { token: alex })
    ).body;
    const planningId = channels.find((c) => c.displayName === 'Planning')!.id;
    // The owners wrote their own notes where the template will put its starter file.
    const folder = await owners.files.filesFolder(teamId, planningId);
    await owners.files.createFolder(folder, 'Contracts');
    await owners.files.createFile(folder, 'Contracts/README.txt', 'Our own notes.');
    await putTemplate({
      channels: [
        {
          displayName: 'Planning',
          folders: ['Contracts/Signed', 'Minutes'],
          files: [
            { path: 'Contracts/README.txt', content: 'Put signed contracts in Signed.' },
            { path: 'Minutes/Template.txt', content: 'Date, people, decisions.' },
          ],
        },
        { displayName: 'Releases' },
        { displayName: 'Partners', membershipType: 'shared' },
      ],
      planner: { title: plan, buckets: [backlog, review] },
      tags: [leads, crew],
      apps: [{ teamsAppId: WEB_APP, displayName: 'Website' }],
    });
    const drift = await driftOf();
    expect(drift.differences).toEqual([
      expect.objectContaining({
        kind: 'channelFile',
        name: 'Planning',
        applicable: true,
        detail:
          'The template puts 2 folders and 1 starter file in "Planning" that the channel lacks; files already there are kept as they are.',
      }),
    ]);
    const job = await apply();
    expect(job.log).toContain('Made 2 folders and 1 starter file in "Planning"; kept 2 items already there.');
    expect((await driftOf()).differences).toEqual([]);
    await apply();
    const contentOf = async (path: string) => {
      if (fake) return fake.files.contentOf(planningId, path);
      const row = await app.steward.store.db
        .selectFrom('platform_channel_items')
        .select('content')
        .where('channel_id', '=', planningId)
        .where('path_key', '=', path.toLowerCase())
        .executeTakeFirst();
      return row?.content;
    };
    expect(await contentOf('Contracts/README.txt')).toBe('Our own notes.');
    expect(await contentOf('Minutes/Template.txt')).toBe('Date, people, decisions.');
    const items = fake
      ? fake.files.itemsOf(planningId)
      : (
          await app.steward.store.db
            .selectFrom('platform_channel_items')
            .select('path')
            .where('channel_id', '=', planningId)
            .execute()
        ).map((r) => r.path);
    expect(items.map((i) => i.replace(/\/$/, '')).sort()).toEqual([
      'Contracts',
      'Contracts/README.txt',
      'Contracts/Signed',
      'Minutes',
      'Minutes/Template.txt',
    ]);
  });

  test('one template with a shared channel, folders, starter files, a plan, tags and an app: a new team has all of it', async () => {
    // The template as the last test left it, made anew: everything in one request.
    const created = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: {
        template: { id: template },
        team: { name: `Whole ${platformKind}`, membership: { members: [{ id: PEOPLE.isaiah }] } },
      },
    });
    expect(created.status).toBe(201);
    const job = await waitForJob(app, alex, created.body.id);
    expect(job.status).toBe('completed');
    teamId = (job.data.team as { id: string }).id;
    const channels = (
      await app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, { token: alex })
    ).body;
    expect(channels.map((c) => [c.displayName, c.membershipType]).sort()).toEqual([
      ['General', 'standard'],
      ['Partners', 'shared'],
      ['Planning', 'standard'],
      ['Releases', 'standard'],
    ]);
    expect(await planOnPlatform()).toEqual({ plans: 1, buckets: ['Backlog', 'Review'], tasks: 2 });
    // Drift compares every part (folders and files, tags, the app included): nothing is missing.
    expect((await driftOf()).differences).toEqual([]);
    expect(job.log).toEqual(
      expect.arrayContaining([
        'Made 3 folders and 2 starter files in "Planning".',
        `Made the plan "${plan}" and added 2 buckets, 2 tasks and 2 checklist items.`,
        'Made tags: Leads (1 person), Crew (1 person).',
        'Installed apps: Website.',
      ]),
    );
  });
});
