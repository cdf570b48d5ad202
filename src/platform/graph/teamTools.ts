import { randomUUID } from 'node:crypto';
import { NotFound } from '../../domain/errors';
import type { TeamChannelTabPayload } from '../../contract';
import { TAG_MEMBERS_AT_CREATION } from '../../contract/teamTools';
import { PlatformError } from '../port';
import type {
  AppInstallation,
  BucketSummary,
  NewPlannerTask,
  NewTag,
  PlanSummary,
  TagSummary,
  TaskSummary,
  TeamWorkspace,
} from '../teamTools';
import type { GraphClient } from './client';
import { segment } from './paths';
import type { Binds } from './binds';

/**
 * A team's plan, tags and apps on Microsoft Graph v1.0 (paths of microsoftgraph/microsoft-graph-docs-contrib,
 * api-reference/v1.0/). Every call is an application call, with the permission Microsoft documents
 * for it; none of them is delegated-only, so none needs a person's authority the way the label does:
 *
 * - Planner (`Tasks.ReadWrite.All`): `GET /groups/{id}/planner/plans`, `POST /planner/plans` with the
 *   team's group as container (`api/planner-post-plans.md`), `GET /planner/plans/{id}/buckets` and
 *   `POST /planner/buckets` with an `orderHint` (`resources/planner-order-hint-format.md`),
 *   `GET /planner/plans/{id}/tasks` and `POST /planner/tasks`, and a task's checklist through
 *   `GET` then `PATCH /planner/tasks/{id}/details` with `If-Match` set to the details' etag
 *   (`resources/planner-overview.md`: Planner versions every resource by etag and answers 412 to a
 *   stale one, after which the client reads the resource again; so does this adapter, a few times).
 * - Tags (`TeamworkTag.ReadWrite.All`, `api/teamworktag-post.md`): a tag is created with at most
 *   25 members; the rest go one by one (`api/teamworktagmember-post.md`).
 * - Apps (`TeamsAppInstallation.ReadWriteForTeam.All`, `api/team-post-installedapps.md`): an app
 *   the catalog lacks answers 404, one already there 409.
 *
 * Teams calls (tags, apps, the plan's tab) take their turn in the Graph budget like every Teams
 * call; Planner calls are not Teams calls, and Microsoft publishes no service-specific limit for
 * them ("Microsoft Graph service-specific throttling limits" has no Planner section), so, like the
 * directory's, they are not paced; a 429 is still retried after its `Retry-After` by GraphClient.
 */
export class GraphWorkspace implements TeamWorkspace {
  constructor(
    private readonly client: GraphClient,
    private readonly binds: Binds,
    private readonly tenantId: string,
  ) {}

  async listPlans(teamId: string): Promise<PlanSummary[]> {
    const plans = await this.client.list<GraphPlan>(`/groups/${segment(teamId)}/planner/plans`);
    return plans.map((p) => ({ id: p.id, title: p.title }));
  }

  async createPlan(teamId: string, title: string): Promise<PlanSummary> {
    const response = await this.client.send<GraphPlan>({
      method: 'POST',
      path: '/planner/plans',
      body: { container: { containerId: teamId, type: 'group' }, title },
    });
    return { id: created(response.body, 'plan').id, title };
  }

  async listBuckets(planId: string): Promise<BucketSummary[]> {
    const buckets = await this.client.list<GraphBucket>(`/planner/plans/${segment(planId)}/buckets`);
    return buckets.map(toBucket).sort(byOrderHint);
  }

  async createBucket(planId: string, name: string, after?: BucketSummary): Promise<BucketSummary> {
    // Planner's order hints: "{previous} !" places an item after `previous`, " !" first.
    const response = await this.client.send<GraphBucket>({
      method: 'POST',
      path: '/planner/buckets',
      body: { name, planId, orderHint: after ? `${after.orderHint} !` : ' !' },
    });
    return toBucket(created(response.body, 'bucket'));
  }

  async listTasks(planId: string): Promise<TaskSummary[]> {
    const tasks = await this.client.list<GraphTask>(`/planner/plans/${segment(planId)}/tasks`);
    return tasks.map((t) => ({ id: t.id, title: t.title, bucketId: t.bucketId ?? null }));
  }

  async createTask(planId: string, task: NewPlannerTask): Promise<TaskSummary> {
    const response = await this.client.send<GraphTask>({
      method: 'POST',
      path: '/planner/tasks',
      body: {
        planId,
        bucketId: task.bucketId,
        title: task.title,
        ...(task.dueDateTime ? { dueDateTime: task.dueDateTime } : {}),
      },
    });
    const made = created(response.body, 'task');
    return { id: made.id, title: task.title, bucketId: task.bucketId };
  }

  async addChecklist(taskId: string, titles: readonly string[]): Promise<number> {
    const path = `/planner/tasks/${segment(taskId)}/details`;
    for (let attempt = 1; ; attempt++) {
      const details = await this.client.get<GraphTaskDetails>(path);
      const present = new Set(Object.values(details.checklist ?? {}).map((item) => item.title));
      const missing = titles.filter((title) => !present.has(title));
      if (missing.length === 0) return 0;
      const etag = details['@odata.etag'];
      if (!etag) throw new PlatformError('Microsoft Graph answered task details without an etag', 502, false);
      const checklist: Record<string, unknown> = {};
      for (const title of missing) {
        checklist[randomUUID()] = {
          '@odata.type': 'microsoft.graph.plannerChecklistItem',
          title,
          isChecked: false,
        };
      }
      try {
        await this.client.send({ method: 'PATCH', path, headers: { 'if-match': etag }, body: { checklist } });
        return missing.length;
      } catch (error) {
        // Someone changed the details since we read them: read them again (Planner's advice).
        const stale = error instanceof PlatformError && (error.status === 412 || error.status === 409);
        if (!stale || attempt >= 3) throw error;
      }
    }
  }

  planTab(_teamId: string, planId: string, displayName: string): TeamChannelTabPayload {
    // `concepts/teams-configuring-builtin-tabs.md`, "Planner tabs".
    const url = `https://tasks.office.com/${encodeURIComponent(this.tenantId)}/Home/PlannerFrame?page=7&planId=${encodeURIComponent(planId)}`;
    return {
      displayName,
      teamsAppId: PLANNER_APP_ID,
      configuration: { entityId: planId, contentUrl: url, removeUrl: url, websiteUrl: url },
    };
  }

  async listTags(teamId: string): Promise<TagSummary[]> {
    const tags = await this.client.list<TagSummary>(`/teams/${segment(teamId)}/tags`);
    return tags.map((t) => ({ id: t.id, displayName: t.displayName }));
  }

  async createTag(teamId: string, tag: NewTag): Promise<TagSummary> {
    const first = tag.memberIds.slice(0, TAG_MEMBERS_AT_CREATION);
    const response = await this.client.send<TagSummary>({
      method: 'POST',
      path: `/teams/${segment(teamId)}/tags`,
      body: {
        displayName: tag.displayName,
        ...(tag.description ? { description: tag.description } : {}),
        members: first.map((userId) => ({ userId })),
      },
    });
    const made = created(response.body, 'tag');
    for (const userId of tag.memberIds.slice(TAG_MEMBERS_AT_CREATION)) {
      await this.addTagMember(teamId, made.id, userId);
    }
    return { id: made.id, displayName: tag.displayName };
  }

  async listTagMembers(teamId: string, tagId: string): Promise<string[]> {
    const members = await this.client.list<{ userId: string }>(
      `/teams/${segment(teamId)}/tags/${segment(tagId)}/members`,
    );
    return members.map((m) => m.userId);
  }

  async addTagMember(teamId: string, tagId: string, userId: string): Promise<void> {
    try {
      await this.client.send({
        method: 'POST',
        path: `/teams/${segment(teamId)}/tags/${segment(tagId)}/members`,
        body: { userId },
      });
    } catch (error) {
      if (!(error instanceof PlatformError && error.status === 409)) throw error; // there already
    }
  }

  async listInstalledApps(teamId: string): Promise<string[]> {
    const apps = await this.client.list<{ teamsApp?: { id?: string } }>(
      `/teams/${segment(teamId)}/installedApps?$expand=teamsApp`,
    );
    return apps.flatMap((a) => (a.teamsApp?.id ? [a.teamsApp.id] : []));
  }

  async installApp(teamId: string, teamsAppId: string): Promise<AppInstallation> {
    try {
      await this.client.send({
        method: 'POST',
        path: `/teams/${segment(teamId)}/installedApps`,
        body: { 'teamsApp@odata.bind': this.binds.app(teamsAppId) },
      });
      return 'installed';
    } catch (error) {
      if (error instanceof NotFound) return 'notInCatalog';
      if (error instanceof PlatformError && error.status === 409) return 'alreadyInstalled';
      throw error;
    }
  }
}

/** The Planner tab's app (`concepts/teams-configuring-builtin-tabs.md`). */
export const PLANNER_APP_ID = 'com.microsoft.teamspace.tab.planner';

interface GraphPlan {
  id: string;
  title: string;
}

interface GraphBucket {
  id: string;
  name: string;
  orderHint?: string;
}

interface GraphTask {
  id: string;
  title: string;
  bucketId?: string | null;
}

interface GraphTaskDetails {
  '@odata.etag'?: string;
  checklist?: Record<string, { title: string; isChecked?: boolean }>;
}

function toBucket(bucket: GraphBucket): BucketSummary {
  return { id: bucket.id, name: bucket.name, orderHint: bucket.orderHint ?? '' };
}

/** Planner sorts by order hint in ordinal (not locale) order. */
function byOrderHint(a: BucketSummary, b: BucketSummary): number {
  return a.orderHint < b.orderHint ? -1 : a.orderHint > b.orderHint ? 1 : 0;
}

function created<T extends { id?: string }>(body: T | undefined, what: string): T & { id: string } {
  if (!body?.id)
    throw new PlatformError(`Microsoft Graph created the ${what} but returned no id`, 502, false);
  return body as T & { id: string };
}
