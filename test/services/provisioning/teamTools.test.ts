import type { Job } from '../../../src/contract';
import type { StoredJob } from '../../../src/domain/jobs';
import { EmbeddedTeams } from '../../../src/platform/embedded';
import { ProvisioningData } from '../../../src/services/jobData/provisioningData';
import type { ProvisioningStep } from '../../../src/services/provisioning/job/steps';
import { runWorkspaceSteps } from '../../../src/services/provisioning/job/teamToolsSteps';
import { dueDateTime } from '../../../src/services/workspace/teamTools';
import type { JobRun, StepResult } from '../../../src/services/jobs/jobType';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

/**
 * Templates that build a team's plan, tags and apps (docs/guides/templates.md) on the embedded platform: the seeded
 * onboarding-buddy template makes all of it and the team's page shows it; a job whose steps run
 * again makes nothing twice; an app the catalog lacks is skipped with a note; templates Graph
 * would refuse are refused when saved, with a 400 naming the field, and nothing is stored.
 */

const FORMS = '81fef3a6-72aa-4648-a763-de824aeafb7d';

describe.each(databaseKinds)('templates with a plan, tags and apps on the embedded platform, %s', (kind) => {
  const suite = suiteSteward(kind, { env: { STEWARD_JOB_POLL_MS: '50' } });

  const provision = async (template: string, name: string, extra: Record<string, unknown> = {}) => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: template }, team: { name, ...extra } },
    });
    expect(res.status).toBe(201);
    return waitForJob(suite.app, suite.alex, res.body.id);
  };
  const count = async (
    table:
      | 'platform_plans'
      | 'platform_plan_buckets'
      | 'platform_plan_tasks'
      | 'platform_tags'
      | 'platform_tag_members'
      | 'platform_installed_apps',
    teamId: string,
  ) =>
    Number(
      (
        await suite.app.steward.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('team_id', '=', teamId)
          .executeTakeFirst()
      )?.n,
    );

  test('the onboarding-buddy template makes its plan, tags and app, and the team page shows them', async () => {
    const job = await provision('onboarding-buddy', 'Sam', {
      membership: { members: [{ id: 'isaiah@example.com' }] },
    });
    expect(job.status).toBe('completed');
    const teamId = (job.data.team as { id: string }).id;
    const steps = Object.fromEntries(job.steps.map((s) => [s.name, s.status]));
    expect(steps).toMatchObject({ planner: 'done', tags: 'done', apps: 'done' });
    expect(job.log).toContainEqual(
      expect.stringMatching(/^Made the plan ".*Sam" and added 3 buckets, 6 tasks and 8 checklist items\.$/),
    );
    expect(job.log).toContainEqual('Pinned the plan as the tab "First 90 days" in General.');
    expect(job.log).toContainEqual('Installed apps: Forms.');

    const db = suite.app.steward.store.db;
    const plans = await db.selectFrom('platform_plans').selectAll().where('team_id', '=', teamId).execute();
    expect(plans).toHaveLength(1);
    // The plan's title defaults to the team's name.
    expect(plans[0]?.title).toBe((job.data.team as { displayName: string }).displayName);
    const tasks = await db
      .selectFrom('platform_plan_tasks')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('created_at')
      .execute();
    const laptop = tasks.find((t) => t.title === 'Set up your laptop and accounts');
    expect(laptop?.due_date_time).toBe(dueDateTime(job.createdDateTime, 1));
    expect(laptop?.due_date_time).toMatch(/T12:00:00\.000Z$/);
    expect((JSON.parse(laptop!.checklist) as Array<{ title: string }>).map((i) => i.title)).toEqual([
      'Sign in to Teams and Outlook',
      'Set up multifactor sign-in',
      'Install the VPN',
    ]);
    expect(tasks.find((t) => t.title === 'Read the employee handbook')?.checklist).toBe('[]');

    // The tags: Buddies are the owners (Alex, the requester, and Katharina, a permanent owner);
    // Cohort is everyone.
    const tags = await db.selectFrom('platform_tags').selectAll().where('team_id', '=', teamId).execute();
    expect(tags.map((t) => t.display_name).sort()).toEqual(['Buddies', 'Cohort']);
    const members = await db
      .selectFrom('platform_tag_members')
      .innerJoin('platform_tags', 'platform_tags.id', 'platform_tag_members.tag_id')
      .select(['platform_tags.display_name', 'platform_tag_members.user_id'])
      .where('platform_tag_members.team_id', '=', teamId)
      .execute();
    const teamMembers = await db
      .selectFrom('platform_members')
      .selectAll()
      .where('team_id', '=', teamId)
      .execute();
    const owners = teamMembers.filter((m) => m.role === 'owner').map((m) => m.user_id);
    expect(
      members
        .filter((m) => m.display_name === 'Buddies')
        .map((m) => m.user_id)
        .sort(),
    ).toEqual(owners.sort());
    expect(members.filter((m) => m.display_name === 'Cohort')).toHaveLength(teamMembers.length);
    expect(teamMembers.length).toBeGreaterThan(owners.length);

    const page = await fetch(`${suite.app.url}/platform/teams/${encodeURIComponent(teamId)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Buckets in the template's order, tasks with their due day and checklist.
    const order = ['First week', 'First month', 'First 90 days'].map((name) =>
      html.indexOf(`<h3>${name}</h3>`),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(
      `Set up your laptop and accounts <span class="muted">due ${dueDateTime(job.createdDateTime, 1).slice(0, 10)}</span>`,
    );
    expect(html).toContain('☐ Install the VPN');
    expect(html).toContain(`id="plan-${plans[0]!.id}"`);
    expect(html).toMatch(/<li>Buddies <span class="muted">Ask them anything\.<\/span>: [^<]*Alex Wilber/);
    expect(html).toContain('<h2>Installed apps (1)</h2><ul><li>Forms</li></ul>');
    // The Planner tab in General links to the plan on this page.
    const tab = await db
      .selectFrom('platform_tabs')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('teams_app_id', '=', 'com.microsoft.teamspace.tab.planner')
      .executeTakeFirst();
    expect(tab?.display_name).toBe('First 90 days');
    expect(JSON.parse(tab!.configuration)).toMatchObject({ entityId: plans[0]!.id });
  });

  test('steps run again after a crash make nothing twice, and complete what they find', async () => {
    const job = await provision('onboarding-buddy', 'Kim');
    expect(job.status).toBe('completed');
    const teamId = (job.data.team as { id: string }).id;
    const tables = [
      'platform_plans',
      'platform_plan_buckets',
      'platform_plan_tasks',
      'platform_tags',
      'platform_tag_members',
      'platform_installed_apps',
    ] as const;
    const before = await Promise.all(tables.map((t) => count(t, teamId)));
    // A task lost a checklist item and a tag a member since (as if the job had stopped mid-step).
    const db = suite.app.steward.store.db;
    const task = await db
      .selectFrom('platform_plan_tasks')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('title', '=', 'Meet your buddy')
      .executeTakeFirstOrThrow();
    const items = JSON.parse(task.checklist) as unknown[];
    await db
      .updateTable('platform_plan_tasks')
      .set({ checklist: JSON.stringify(items.slice(0, 1)) })
      .where('id', '=', task.id)
      .execute();
    const cohort = await db
      .selectFrom('platform_tags')
      .select('id')
      .where('team_id', '=', teamId)
      .where('display_name', '=', 'Cohort')
      .executeTakeFirstOrThrow();
    await db
      .deleteFrom('platform_tag_members')
      .where('tag_id', '=', cohort.id)
      .where('user_id', '=', PEOPLE.alex)
      .execute();

    // The job's planner, tags and apps steps run again as a resumed job runs them: none checkpointed.
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    const teams = new EmbeddedTeams(db, { publicUrl: () => suite.app.url, latencyMs: 0, faults: [] });
    const results: Array<[string, StepResult<ProvisioningData> | void]> = [];
    const run = {
      job: { id: job.id, createdAt: row.created_at, checkpoint: { teamId } } as unknown as StoredJob,
      data: ProvisioningData.parse(JSON.parse(row.data)),
      step: async (name: ProvisioningStep, work: () => Promise<StepResult<ProvisioningData> | void>) => {
        results.push([name, await work()]);
      },
      operation: { wait: () => Promise.reject(new Error('no operation here')) },
    } as JobRun<ProvisioningData, ProvisioningStep>;
    await runWorkspaceSteps(run, teams);

    expect(await Promise.all(tables.map((t) => count(t, teamId)))).toEqual(before);
    const logs = Object.fromEntries(results.map(([name, result]) => [name, result?.log ?? []]));
    const title = (job.data.team as { displayName: string }).displayName;
    expect(logs.planner).toEqual([
      `Found the plan "${title}" and added 0 buckets, 0 tasks and 1 checklist item.`,
    ]);
    expect(logs.tags).toEqual(['Completed the tag "Cohort" (1 added now).']);
    expect(logs.apps).toEqual([]);
    const repaired = await db
      .selectFrom('platform_plan_tasks')
      .select('checklist')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(repaired.checklist) as Array<{ title: string }>).map((i) => i.title)).toEqual([
      'Book a coffee',
      'Agree on a weekly check-in',
    ]);
  });

  test("an app the organisation's catalog lacks is skipped with a note; the job completes", async () => {
    const put = await suite.app.call('PUT', '/api/v1.0/catalog/templates/apps-only', {
      token: suite.megan,
      body: {
        templateConfiguration: { name: 'Apps only' },
        newTeam: {
          apps: [
            { teamsAppId: 'com.contoso.unknown', displayName: 'Contoso timesheets' },
            { teamsAppId: FORMS },
          ],
          tags: [{ displayName: 'Members', members: 'members' }],
        },
      },
    });
    expect(put.status).toBe(200);
    const job = await provision('apps-only', 'Apps');
    expect(job.status).toBe('completed');
    expect(job.log).toContainEqual(
      'Skipped the app "Contoso timesheets" (com.contoso.unknown): it is not in the organisation\'s app catalog. ' +
        'An administrator can add it to the catalog, then install it in the team.',
    );
    expect(job.log).toContainEqual(`Installed apps: ${FORMS}.`);
    // Nobody but the requester (an owner): the tag of members is skipped, not made empty.
    expect(job.log).toContainEqual('Skipped the tag "Members": the request has nobody among its members.');
    // A template without a plan has no plan step.
    expect(job.steps.map((s) => s.name)).not.toContain('planner');
    const steps = Object.fromEntries(job.steps.map((s) => [s.name, s.status]));
    expect(steps).toMatchObject({ tags: 'done', apps: 'done' });
    const teamId = (job.data.team as { id: string }).id;
    expect(await count('platform_installed_apps', teamId)).toBe(1);
    expect(await count('platform_tags', teamId)).toBe(0);
  });

  test.each([
    [
      'a checklist of 21 items',
      {
        planner: {
          buckets: [
            {
              name: 'B',
              tasks: [{ title: 'T', checklist: Array.from({ length: 21 }, (_, i) => `Item ${i}`) }],
            },
          ],
        },
      },
      'body.newTeam.planner.buckets.0.tasks.0.checklist',
    ],
    [
      'a checklist item of 101 characters',
      { planner: { buckets: [{ name: 'B', tasks: [{ title: 'T', checklist: ['x'.repeat(101)] }] }] } },
      'body.newTeam.planner.buckets.0.tasks.0.checklist.0',
    ],
    ['a plan without buckets', { planner: { buckets: [] } }, 'body.newTeam.planner.buckets'],
    [
      'a negative due offset',
      { planner: { buckets: [{ name: 'B', tasks: [{ title: 'T', dueInDays: -1 }] }] } },
      'body.newTeam.planner.buckets.0.tasks.0.dueInDays',
    ],
    [
      "a plan's tab in a channel the team will not have",
      { planner: { buckets: [{ name: 'B' }], tab: { channel: 'Nowhere' } } },
      'newTeam.planner.tab.channel',
    ],
    [
      'two buckets of one name',
      { planner: { buckets: [{ name: 'Later' }, { name: 'later' }] } },
      'newTeam.planner.buckets[1].name',
    ],
    [
      'a tag name of 41 characters',
      { tags: [{ displayName: 'x'.repeat(41), members: 'everyone' }] },
      'body.newTeam.tags.0.displayName',
    ],
    [
      'a tag drawn from nobody known',
      { tags: [{ displayName: 'T', members: 'guests' }] },
      'body.newTeam.tags.0.members',
    ],
    [
      'an app listed twice',
      { apps: [{ teamsAppId: FORMS }, { teamsAppId: FORMS }] },
      'newTeam.apps[1].teamsAppId',
    ],
  ])('%s is refused with a 400 naming it, and nothing is stored', async (_what, newTeam, target) => {
    const res = await suite.app.call<{ error: { details: Array<{ target: string; message: string }> } }>(
      'PUT',
      '/api/v1.0/catalog/templates/refused-workspace',
      { token: suite.megan, body: { templateConfiguration: { name: 'Refused' }, newTeam } },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.target)).toContain(target);
    expect(res.body.error.details.every((d) => d.message.length > 0)).toBe(true);
    const stored = await suite.app.call('GET', '/api/v1.0/catalog/templates/refused-workspace', {
      token: suite.megan,
    });
    expect(stored.status).toBe(404);
  });
});
