import { randomUUID } from 'node:crypto';
import { permitted } from './permitted';
import { fail, HttpError, type Json, type Reply } from './protocol';
import type { GroupRecord, Handler, ParsedRequest, TeamRecord } from './records';

/**
 * Planner, team tags and the apps installed in a team, as Microsoft Graph v1.0 documents them
 * (microsoftgraph/microsoft-graph-docs-contrib, api-reference/v1.0/):
 *
 * - Plans of a group (`api/plannergroup-list-plans.md`); `POST /planner/plans` with the group as
 *   container (`api/planner-post-plans.md`): the group must exist (404), and "groups can only contain
 *   one Plan" (`resources/planner-overview.md`: 403 `MaximumPlannerPlans`).
 * - Buckets (`api/planner-post-buckets.md`) with an order hint in Planner's format
 *   (`resources/planner-order-hint-format.md`: "{previous} {next} !"; a value not in that format is
 *   a 400, `resources/planner-overview.md`); tasks (`api/planner-post-tasks.md`) in a bucket of
 *   their plan.
 * - Task details (`api/plannertaskdetails-get.md`, `api/plannertaskdetails-update.md`): versioned by
 *   an etag; a `PATCH` needs `If-Match` (400 without), and a stale etag is a 412; checklist items
 *   must declare `@odata.type` `microsoft.graph.plannerChecklistItem` (400), and a task holds at
 *   most 20 (403 `MaximumChecklistItemsOnTask`).
 * - Tags (`api/teamworktag-post.md`): a name of at most 40 characters, 1 to 25 members at creation,
 *   each a member of the team; more one by one (`api/teamworktagmember-post.md`).
 * - Installed apps listed with their app (`api/team-list-installedapps.md`, `$expand=teamsApp`);
 *   installing is in `channels.ts`.
 *
 * Every call is logged and counted by the server like any other.
 */
export class WorkspaceFake {
  readonly plans = new Map<string, { id: string; groupId: string; title: string }>();
  readonly buckets = new Map<string, { id: string; planId: string; name: string; orderHint: string }>();
  readonly tasks = new Map<
    string,
    {
      id: string;
      planId: string;
      bucketId: string | null;
      title: string;
      dueDateTime: string | null;
      version: number;
      checklist: Record<string, { title: string; isChecked: boolean; orderHint: string }>;
    }
  >();
  readonly tags = new Map<
    string,
    { id: string; teamId: string; displayName: string; description: string | null; memberIds: Set<string> }
  >();

  constructor(
    private readonly tenant: {
      group(id: string): GroupRecord;
      team(id: string): TeamRecord;
      app(id: string): Json | undefined;
      collection(request: ParsedRequest, items: Json[]): Reply;
      /** The application permissions the app was granted. */
      granted: ReadonlySet<string>;
    },
  ) {}

  /**
   * The routes the server adds to its own, each refused with Graph's 403 unless the app was granted
   * one of the application permissions its page lists.
   */
  routes(): Array<[string, RegExp, Handler]> {
    const id = '([^/]+)';
    const tasksRead = ['Tasks.Read.All', 'Tasks.ReadWrite.All'];
    const tasksWrite = ['Tasks.ReadWrite.All'];
    const tagsRead = ['TeamworkTag.Read.All', 'TeamworkTag.ReadWrite.All'];
    const tagsWrite = ['TeamworkTag.ReadWrite.All'];
    const appsRead = [
      'TeamsAppInstallation.ReadForTeam.All',
      'TeamsAppInstallation.ReadSelfForTeam.All',
      'TeamsAppInstallation.ReadWriteSelfForTeam.All',
      'TeamsAppInstallation.ReadWriteForTeam.All',
    ];
    const routes: Array<[string, RegExp, string[], Handler]> = [
      ['GET', new RegExp(`^/groups/${id}/planner/plans$`), tasksRead, (r, g) => this.listPlans(r, g)],
      ['POST', /^\/planner\/plans$/, tasksWrite, (r) => this.createPlan(r)],
      ['GET', new RegExp(`^/planner/plans/${id}/buckets$`), tasksRead, (r, p) => this.listBuckets(r, p)],
      ['POST', /^\/planner\/buckets$/, tasksWrite, (r) => this.createBucket(r)],
      ['GET', new RegExp(`^/planner/plans/${id}/tasks$`), tasksRead, (r, p) => this.listTasks(r, p)],
      ['POST', /^\/planner\/tasks$/, tasksWrite, (r) => this.createTask(r)],
      ['GET', new RegExp(`^/planner/tasks/${id}/details$`), tasksRead, (r, t) => this.getDetails(t)],
      ['PATCH', new RegExp(`^/planner/tasks/${id}/details$`), tasksWrite, (r, t) => this.patchDetails(r, t)],
      ['GET', new RegExp(`^/teams/${id}/tags$`), tagsRead, (r, t) => this.listTags(r, t)],
      ['POST', new RegExp(`^/teams/${id}/tags$`), tagsWrite, (r, t) => this.createTag(r, t)],
      [
        'GET',
        new RegExp(`^/teams/${id}/tags/${id}/members$`),
        tagsRead,
        (r, t, g) => this.listTagMembers(r, t, g),
      ],
      [
        'POST',
        new RegExp(`^/teams/${id}/tags/${id}/members$`),
        tagsWrite,
        (r, t, g) => this.addTagMember(r, t, g),
      ],
      ['GET', new RegExp(`^/teams/${id}/installedApps$`), appsRead, (r, t) => this.listInstalledApps(r, t)],
    ];
    return permitted(routes, this.tenant.granted);
  }

  // ---- Planner ----

  private listPlans(request: ParsedRequest, groupId: string): Reply {
    this.tenant.group(groupId);
    const plans = [...this.plans.values()].filter((p) => p.groupId === groupId);
    return this.tenant.collection(
      request,
      plans.map((p) => this.planJson(p)),
    );
  }

  private createPlan(request: ParsedRequest): Reply {
    const container = (request.body.container ?? {}) as Json;
    const fromUrl = /\/groups\/([^/]+)$/.exec(String(container.url ?? ''))?.[1];
    const groupId = typeof container.containerId === 'string' ? container.containerId : fromUrl;
    if (!groupId) return fail(400, 'BadRequest', 'The plan needs a container.');
    if (typeof request.body.title !== 'string' || request.body.title === '')
      return fail(400, 'BadRequest', 'The plan needs a title.');
    this.tenant.group(groupId);
    if ([...this.plans.values()].some((p) => p.groupId === groupId)) {
      return fail(403, 'MaximumPlannerPlans', 'The group already contains a plan.');
    }
    const plan = { id: randomUUID(), groupId, title: request.body.title };
    this.plans.set(plan.id, plan);
    return { status: 201, body: this.planJson(plan) };
  }

  private listBuckets(request: ParsedRequest, planId: string): Reply {
    this.plan(planId);
    const buckets = [...this.buckets.values()].filter((b) => b.planId === planId);
    return this.tenant.collection(
      request,
      buckets.map((b) => this.bucketJson(b)),
    );
  }

  private createBucket(request: ParsedRequest): Reply {
    const { name, planId, orderHint } = request.body;
    if (typeof name !== 'string' || name === '') return fail(400, 'BadRequest', 'The bucket needs a name.');
    if (typeof planId !== 'string') return fail(400, 'BadRequest', 'The bucket needs a planId.');
    const plan = this.plans.get(planId);
    if (!plan) return fail(404, 'NotFound', `The plan ${planId} does not exist.`);
    const siblings = [...this.buckets.values()].filter((b) => b.planId === planId).map((b) => b.orderHint);
    const hint = orderHintBetween(orderHint, siblings);
    if (hint === undefined) return fail(400, 'BadRequest', 'The order hint is not in the correct format.');
    const bucket = { id: randomUUID(), planId, name, orderHint: hint };
    this.buckets.set(bucket.id, bucket);
    return { status: 201, body: this.bucketJson(bucket) };
  }

  private listTasks(request: ParsedRequest, planId: string): Reply {
    this.plan(planId);
    const tasks = [...this.tasks.values()].filter((t) => t.planId === planId);
    return this.tenant.collection(
      request,
      tasks.map((t) => ({
        '@odata.etag': etag(t.version),
        id: t.id,
        planId: t.planId,
        bucketId: t.bucketId,
        title: t.title,
        dueDateTime: t.dueDateTime,
      })),
    );
  }

  private createTask(request: ParsedRequest): Reply {
    const { planId, bucketId, title, dueDateTime } = request.body;
    if (typeof planId !== 'string' || !this.plans.has(planId))
      return fail(400, 'BadRequest', 'The task needs the id of an existing plan.');
    if (typeof title !== 'string' || title === '' || title.length > 255)
      return fail(400, 'BadRequest', 'The task needs a title of at most 255 characters.');
    if (bucketId !== undefined && bucketId !== null) {
      const bucket = this.buckets.get(String(bucketId));
      if (!bucket || bucket.planId !== planId)
        return fail(400, 'BadRequest', 'The bucket is not a bucket of the plan.');
    }
    if (dueDateTime !== undefined && Number.isNaN(Date.parse(String(dueDateTime))))
      return fail(400, 'BadRequest', 'dueDateTime is not a date and time.');
    const task = {
      id: randomUUID(),
      planId,
      bucketId: typeof bucketId === 'string' ? bucketId : null,
      title,
      dueDateTime: typeof dueDateTime === 'string' ? new Date(dueDateTime).toISOString() : null,
      version: 1,
      checklist: {},
    };
    this.tasks.set(task.id, task);
    return {
      status: 201,
      body: { '@odata.etag': etag(1), ...task, version: undefined, checklist: undefined },
    };
  }

  private getDetails(taskId: string): Reply {
    const task = this.task(taskId);
    return { status: 200, body: this.detailsJson(task) };
  }

  private patchDetails(request: ParsedRequest, taskId: string): Reply {
    const task = this.task(taskId);
    const ifMatch = request.headers['if-match'];
    if (!ifMatch) return fail(400, 'BadRequest', 'The If-Match header must be specified.');
    if (ifMatch !== etag(task.version))
      return fail(412, 'PreconditionFailed', 'The resource has changed since it was read.');
    const changes = request.body.checklist;
    if (changes !== undefined) {
      if (!changes || typeof changes !== 'object')
        return fail(400, 'BadRequest', 'checklist is not an object.');
      const checklist = { ...task.checklist };
      for (const [key, value] of Object.entries(changes as Json)) {
        if (value === null) {
          delete checklist[key];
          continue;
        }
        const item = value as Json;
        if (item['@odata.type'] !== 'microsoft.graph.plannerChecklistItem' && !checklist[key])
          return fail(400, 'BadRequest', 'The checklist item does not declare its @odata.type.');
        if (typeof item.title !== 'string' && !checklist[key])
          return fail(400, 'BadRequest', 'A new checklist item needs a title.');
        checklist[key] = {
          title: typeof item.title === 'string' ? item.title : checklist[key]!.title,
          isChecked: item.isChecked === true,
          orderHint: checklist[key]?.orderHint ?? `${Object.keys(checklist).length}P`,
        };
      }
      if (Object.keys(checklist).length > 20)
        return fail(403, 'MaximumChecklistItemsOnTask', 'The task holds too many checklist items.');
      task.checklist = checklist;
    }
    task.version++;
    return { status: 204 };
  }

  // ---- tags and installed apps ----

  private listTags(request: ParsedRequest, teamId: string): Reply {
    this.tenant.team(teamId);
    const tags = [...this.tags.values()].filter((t) => t.teamId === teamId);
    return this.tenant.collection(
      request,
      tags.map((t) => this.tagJson(t)),
    );
  }

  private createTag(request: ParsedRequest, teamId: string): Reply {
    const team = this.tenant.team(teamId);
    const { displayName, description } = request.body;
    if (typeof displayName !== 'string' || displayName === '' || displayName.length > 40)
      return fail(400, 'BadRequest', "The tag's name must be 1 to 40 characters.");
    const members = request.body.members;
    if (!Array.isArray(members) || members.length === 0 || members.length > 25)
      return fail(400, 'BadRequest', 'A tag is created with 1 to 25 members.');
    const ids = (members as Json[]).map((m) => String(m.userId ?? ''));
    if (ids.some((userId) => !team.members.some((m) => m.userId === userId)))
      return fail(400, 'BadRequest', "A tag's members must be members of the team.");
    const tag = {
      id: randomUUID(),
      teamId,
      displayName,
      description: typeof description === 'string' ? description : null,
      memberIds: new Set(ids),
    };
    this.tags.set(tag.id, tag);
    return { status: 201, body: this.tagJson(tag) };
  }

  private listTagMembers(request: ParsedRequest, teamId: string, tagId: string): Reply {
    const tag = this.tag(teamId, tagId);
    return this.tenant.collection(
      request,
      [...tag.memberIds].map((userId) => ({ id: `${tagId}-${userId}`, userId, tenantId: null })),
    );
  }

  private addTagMember(request: ParsedRequest, teamId: string, tagId: string): Reply {
    const team = this.tenant.team(teamId);
    const tag = this.tag(teamId, tagId);
    const userId = String(request.body.userId ?? '');
    if (!team.members.some((m) => m.userId === userId))
      return fail(400, 'BadRequest', "A tag's members must be members of the team.");
    tag.memberIds.add(userId);
    return { status: 201, body: { id: `${tagId}-${userId}`, userId } };
  }

  private listInstalledApps(request: ParsedRequest, teamId: string): Reply {
    const team = this.tenant.team(teamId);
    const expand = request.url.searchParams.get('$expand') === 'teamsApp';
    return this.tenant.collection(
      request,
      [...team.installedApps].map((appId) => ({
        id: `${teamId}-${appId}`,
        ...(expand ? { teamsApp: this.tenant.app(appId) ?? { id: appId, displayName: appId } } : {}),
      })),
    );
  }

  // ---- lookups and representations ----

  private plan(planId: string) {
    const plan = this.plans.get(planId);
    if (!plan) throw notFound(`The plan ${planId} does not exist.`);
    return plan;
  }

  private task(taskId: string) {
    const task = this.tasks.get(taskId);
    if (!task) throw notFound(`The task ${taskId} does not exist.`);
    return task;
  }

  private tag(teamId: string, tagId: string) {
    const tag = this.tags.get(tagId);
    if (!tag || tag.teamId !== teamId) throw notFound(`The tag ${tagId} does not exist.`);
    return tag;
  }

  private planJson(plan: { id: string; groupId: string; title: string }): Json {
    return {
      '@odata.etag': etag(1),
      id: plan.id,
      title: plan.title,
      container: { containerId: plan.groupId, type: 'group', url: `/groups/${plan.groupId}` },
    };
  }

  private bucketJson(bucket: { id: string; planId: string; name: string; orderHint: string }): Json {
    return { '@odata.etag': etag(1), ...bucket };
  }

  private detailsJson(task: { id: string; version: number; checklist: Json }): Json {
    return {
      '@odata.etag': etag(task.version),
      id: task.id,
      description: '',
      previewType: 'automatic',
      references: {},
      checklist: Object.fromEntries(
        Object.entries(task.checklist).map(([key, item]) => [
          key,
          { '@odata.type': '#microsoft.graph.plannerChecklistItem', ...(item as Json) },
        ]),
      ),
    };
  }

  private tagJson(tag: {
    id: string;
    teamId: string;
    displayName: string;
    description: string | null;
    memberIds: Set<string>;
  }): Json {
    return {
      id: tag.id,
      teamId: tag.teamId,
      displayName: tag.displayName,
      description: tag.description,
      memberCount: tag.memberIds.size,
      tagType: 'standard',
    };
  }
}

/** Planner's weak etags, one version a number. */
function etag(version: number): string {
  return `W/"JzEtVGFzayAg${version}"`;
}

function notFound(message: string): HttpError {
  return new HttpError(fail(404, 'NotFound', message));
}

/**
 * The order hint Planner stores for "{previous} {next} !" among `siblings`: a value above the
 * previous one (below the first sibling when there is none); undefined when the input is not in
 * that format.
 */
function orderHintBetween(input: unknown, siblings: readonly string[]): string | undefined {
  if (typeof input !== 'string') return undefined;
  const match = /^(\S*)(?: (\S*))? !$/.exec(input);
  if (!match) return undefined;
  const previous = match[1] ?? '';
  if (previous !== '' && !siblings.includes(previous)) return undefined;
  if (previous !== '') return `${previous}P`;
  const first = [...siblings].sort()[0];
  return first === undefined ? 'P' : `!${first}`;
}
