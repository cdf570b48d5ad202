import { randomUUID } from 'node:crypto';
import type { Job } from '../../../src/contract';
import { GraphClient } from '../../../src/platform/graph';
import { graphTokenSource } from '../../../src/platform/graph/identityToken';
import { dueDateTime } from '../../../src/services/workspace/teamTools';
import { databaseKinds } from '../../support/databases';
import { type LoggedRequest } from '../../support/fakeGraph';
import { suiteGraphSteward, WEB_APP } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

/**
 * Templates that build a team's plan, tags and apps (docs/guides/templates.md) through Microsoft Graph: Steward on
 * `STEWARD_PLATFORM=graph` against the Graph simulator, whose Planner keeps etags and answers 412
 * to a stale one, holds one plan a group, and whose tags take 1 to 25 members of the team.
 */

const PLANNER_APP = 'com.microsoft.teamspace.tab.planner';

const TEMPLATE = {
  templateConfiguration: { name: 'Delivery' },
  newTeam: {
    teamPrivacy: 'private',
    channels: [{ displayName: 'Planning' }],
    planner: {
      title: 'Delivery plan',
      buckets: [
        {
          name: 'To do',
          tasks: [{ title: 'Kick-off', dueInDays: 3, checklist: ['Agenda', 'Invitations'] }],
        },
        { name: 'Doing' },
        { name: 'Done', tasks: [{ title: 'Retrospective', dueInDays: 30, checklist: ['Book a room'] }] },
      ],
      tab: { channel: 'Planning', displayName: 'Plan' },
    },
    tags: [
      { displayName: 'Leads', description: 'Who decides.', members: 'owners' },
      { displayName: 'Crew', members: 'everyone' },
    ],
    apps: [
      { teamsAppId: WEB_APP, displayName: 'Website' },
      { teamsAppId: 'com.contoso.unknown', displayName: 'Contoso timesheets' },
    ],
  },
};

describe.each(databaseKinds)(
  'templates with a plan, tags and apps on Microsoft Graph (simulator), %s',
  (kind) => {
    const suite = suiteGraphSteward(kind, {
      seed: (fake) =>
        fake.apps.set(PLANNER_APP, {
          id: PLANNER_APP,
          externalId: null,
          displayName: 'Tasks by Planner and To Do',
          distributionMethod: 'store',
        }),
      env: { STEWARD_JOB_POLL_MS: '50' },
    });
    beforeAll(async () => {
      const put = await suite.app.call('PUT', '/api/v1.0/catalog/templates/delivery', {
        token: suite.megan,
        body: TEMPLATE,
      });
      expect(put.status).toBe(200);
    });

    afterEach(() => suite.fake.clearFaults());

    const provision = async (name: string): Promise<Job> => {
      const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: suite.alex,
        body: {
          template: { id: 'delivery' },
          team: { name, membership: { members: [{ id: 'isaiah@example.com' }] } },
        },
      });
      expect(res.status).toBe(201);
      return waitForJob(suite.app, suite.alex, res.body.id, ['completed', 'failed'], 30_000);
    };
    const since = (mark: number): LoggedRequest[] =>
      suite.fake.requests
        .slice(mark)
        .filter((r) => r.path.startsWith('/v1.0/'))
        .map((r) => ({ ...r, path: decodeURIComponent(r.path) }));
    const find = (calls: LoggedRequest[], method: string, path: RegExp) =>
      calls.filter((r) => r.method === method && path.test(r.path));

    /** What Graph holds of the team's plan: buckets in Planner's order, tasks and their checklists. */
    const planOf = (teamId: string) => {
      const plans = [...suite.fake.workspace.plans.values()].filter((p) => p.groupId === teamId);
      const plan = plans[0]!;
      const buckets = [...suite.fake.workspace.buckets.values()]
        .filter((b) => b.planId === plan.id)
        .sort((a, b) => (a.orderHint < b.orderHint ? -1 : 1));
      const tasks = [...suite.fake.workspace.tasks.values()].filter((t) => t.planId === plan.id);
      return {
        plans,
        plan,
        buckets: buckets.map((b) => ({
          name: b.name,
          tasks: tasks
            .filter((t) => t.bucketId === b.id)
            .map((t) => ({
              title: t.title,
              dueDateTime: t.dueDateTime,
              checklist: Object.values(t.checklist).map((i) => i.title),
            })),
        })),
      };
    };

    test('a template with a plan, tags and apps makes all of it; an app the catalog lacks is skipped with a note', async () => {
      const mark = suite.fake.requests.length;
      const job = await provision('Apollo');
      expect(job.status).toBe('completed');
      const team = job.data.team as { id: string };
      const steps = Object.fromEntries(job.steps.map((s) => [s.name, s.status]));
      expect(steps).toMatchObject({ planner: 'done', tags: 'done', apps: 'done' });

      const { plans, plan, buckets } = planOf(team.id);
      expect(plans).toHaveLength(1);
      expect(plan.title).toBe('Delivery plan');
      expect(buckets).toEqual([
        {
          name: 'To do',
          tasks: [
            {
              title: 'Kick-off',
              dueDateTime: dueDateTime(job.createdDateTime, 3),
              checklist: ['Agenda', 'Invitations'],
            },
          ],
        },
        { name: 'Doing', tasks: [] },
        {
          name: 'Done',
          tasks: [
            {
              title: 'Retrospective',
              dueDateTime: dueDateTime(job.createdDateTime, 30),
              checklist: ['Book a room'],
            },
          ],
        },
      ]);
      const calls = since(mark);
      // What the plan, tags and apps cost: 12 Planner calls (the group's plans, the plan, its
      // buckets read and 3 made, 2 tasks, each task's details read and written once), and 8 Teams
      // calls (the Planning channel's tabs and the plan's tab; the tags read and 2 made; the
      // installed apps read and 2 installs, one refused). More is a regression.
      const planner = calls.filter((r) => /^\/v1\.0\/(planner\/|groups\/[^/]+\/planner)/.test(r.path));
      expect(planner).toHaveLength(12);
      const teamsCalls = calls.filter((r) =>
        /^\/v1\.0\/teams\/[^/]+\/(tags|installedApps|channels\/[^/]+\/tabs)/.test(r.path),
      );
      expect(teamsCalls).toHaveLength(8);
      expect(find(calls, 'POST', /^\/v1\.0\/planner\/plans$/).map((r) => r.body)).toEqual([
        { container: { containerId: team.id, type: 'group' }, title: 'Delivery plan' },
      ]);
      // Each bucket after the one before it, in Planner's order-hint format.
      const bucketPosts = find(calls, 'POST', /^\/v1\.0\/planner\/buckets$/).map(
        (r) => r.body as { orderHint: string },
      );
      expect(bucketPosts[0]?.orderHint).toBe(' !');
      expect(bucketPosts[1]?.orderHint).toMatch(/^\S+ !$/);
      // The checklist is written with the etag just read.
      const patches = find(calls, 'PATCH', /^\/v1\.0\/planner\/tasks\/[^/]+\/details$/);
      expect(patches).toHaveLength(2);
      for (const patch of patches) expect(patch.headers['if-match']).toMatch(/^W\/"/);
      expect(Object.values((patches[0]?.body as { checklist: object }).checklist)).toEqual([
        { '@odata.type': 'microsoft.graph.plannerChecklistItem', title: 'Agenda', isChecked: false },
        { '@odata.type': 'microsoft.graph.plannerChecklistItem', title: 'Invitations', isChecked: false },
      ]);

      // The plan's tab in Planning: the Planner app, its configuration naming the plan.
      const planning = suite.fake.teams.get(team.id)!.channels.find((c) => c.displayName === 'Planning')!;
      const tab = planning.tabs.find((t) => t.teamsAppId === PLANNER_APP);
      expect(tab?.displayName).toBe('Plan');
      expect(tab?.configuration).toMatchObject({
        entityId: plan.id,
        contentUrl: `https://tasks.office.com/${suite.fake.tenantId}/Home/PlannerFrame?page=7&planId=${plan.id}`,
      });

      // Tags: the owners (Alex), and everyone (Alex and Isaiah).
      const tags = [...suite.fake.workspace.tags.values()].filter((t) => t.teamId === team.id);
      expect(tags.map((t) => [t.displayName, t.description, [...t.memberIds].sort()])).toEqual([
        ['Leads', 'Who decides.', [PEOPLE.alex]],
        ['Crew', null, [PEOPLE.alex, PEOPLE.isaiah].sort()],
      ]);

      expect([...suite.fake.teams.get(team.id)!.installedApps]).toEqual([WEB_APP]);
      expect(job.log).toContainEqual('Installed apps: Website.');
      expect(job.log).toContainEqual(
        'Skipped the app "Contoso timesheets" (com.contoso.unknown): it is not in the organisation\'s app catalog. ' +
          'An administrator can add it to the catalog, then install it in the team.',
      );
      expect(job.log).toContainEqual('Made tags: Leads (1 person), Crew (2 people).');
    });

    test('a job stopped in the middle of its plan and resumed makes nothing twice', async () => {
      // Graph throttles the first checklist write longer than the client waits in-process: the step
      // fails after the plan, its buckets and its first task exist, and the job runs it again later.
      suite.fake.fail({
        method: 'PATCH',
        path: /^\/planner\/tasks\/[^/]+\/details$/,
        times: 1,
        status: 429,
        retryAfter: '2',
      });
      const mark = suite.fake.requests.length;
      const job = await provision('Hermes');
      expect(job.status).toBe('completed');
      expect(job.log).toContainEqual(expect.stringMatching(/^Attempt 1 failed: .*429/));
      const team = job.data.team as { id: string };
      const { plans, buckets } = planOf(team.id);
      expect(plans).toHaveLength(1);
      expect(buckets.map((b) => [b.name, b.tasks.map((t) => [t.title, t.checklist])])).toEqual([
        ['To do', [['Kick-off', ['Agenda', 'Invitations']]]],
        ['Doing', []],
        ['Done', [['Retrospective', ['Book a room']]]],
      ]);
      const calls = since(mark);
      expect(find(calls, 'POST', /^\/v1\.0\/planner\/plans$/)).toHaveLength(1);
      expect(find(calls, 'POST', /^\/v1\.0\/planner\/buckets$/)).toHaveLength(3);
      expect(find(calls, 'POST', /^\/v1\.0\/planner\/tasks$/)).toHaveLength(2);
      // The second run found the plan and read its tasks before making any.
      expect(find(calls, 'GET', /^\/v1\.0\/planner\/plans\/[^/]+\/tasks$/)).toHaveLength(1);
      expect(job.log).toContainEqual(
        'Found the plan "Delivery plan" and added 2 buckets, 1 task and 3 checklist items.',
      );
    });

    test('without the permission Graph lists for tags, the job fails saying so, after the plan', async () => {
      suite.fake.granted.delete('TeamworkTag.ReadWrite.All');
      try {
        const job = await provision('Janus');
        expect(job.status).toBe('failed');
        expect(job.failedReason).toMatch(
          /Microsoft Graph answered 403 Authorization_RequestDenied to GET \/v1\.0\/teams\/[^/]+\/tags/,
        );
        const steps = Object.fromEntries(job.steps.map((s) => [s.name, s.status]));
        expect(steps).toMatchObject({ planner: 'done', tags: 'failed' });
      } finally {
        suite.fake.granted.add('TeamworkTag.ReadWrite.All');
      }
    });

    test('a checklist write on a stale etag gets 412, and the adapter reads the details again', async () => {
      const job = await provision('Iris');
      const team = job.data.team as { id: string };
      const { plan } = planOf(team.id);
      const task = [...suite.fake.workspace.tasks.values()].find(
        (t) => t.planId === plan.id && t.title === 'Kick-off',
      )!;
      const client = new GraphClient({
        baseUrl: suite.fake.baseUrl,
        tokens: graphTokenSource(suite.fake.config(), suite.dispatcher),
        dispatcher: suite.dispatcher,
        retry: { maxAttempts: 1 },
      });
      const path = `/planner/tasks/${task.id}/details`;
      const read = await client.get<{ '@odata.etag': string }>(path);
      const item = (title: string) => ({
        checklist: { [randomUUID()]: { '@odata.type': 'microsoft.graph.plannerChecklistItem', title } },
      });
      await client.send({
        method: 'PATCH',
        path,
        headers: { 'if-match': read['@odata.etag'] },
        body: item('First'),
      });
      // The same etag again is stale now: Planner refuses the write.
      await expect(
        client.send({
          method: 'PATCH',
          path,
          headers: { 'if-match': read['@odata.etag'] },
          body: item('Second'),
        }),
      ).rejects.toMatchObject({ status: 412 });
      await expect(client.send({ method: 'PATCH', path, body: item('Third') })).rejects.toMatchObject({
        status: 400,
      });

      // Someone else writes between the adapter's read and its write: it reads again and succeeds.
      suite.fake.fail({ method: 'PATCH', path: /^\/planner\/tasks\/[^/]+\/details$/, times: 1, status: 412 });
      const added = await suite.platform.teams.workspace.addChecklist(task.id, ['Agenda', 'Slides']);
      expect(added).toBe(1);
      expect(Object.values(task.checklist).map((i) => i.title)).toEqual([
        'Agenda',
        'Invitations',
        'First',
        'Slides',
      ]);
    });
  },
);
