import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { TeamChannelTabPayload } from '../../contract';
import type { Database, PlatformPlanTaskRow } from '../../store/schema';
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
import type { Stamp } from './teamCreation';
import { lockTeam } from './teamRecords';
import { requireTeam, teamWebUrl } from './teamRows';

/**
 * The embedded tenant's app catalog: Microsoft's built-in apps by the ids Graph documents
 * (`concepts/teams-configuring-builtin-tabs.md`); an id outside it is an app the organisation does
 * not have, as Graph answers 404 for it.
 */
export const EMBEDDED_APP_CATALOG: ReadonlyMap<string, string> = new Map([
  ['com.microsoft.teamspace.tab.planner', 'Tasks by Planner and To Do'],
  ['com.microsoft.teamspace.tab.web', 'Website'],
  ['com.microsoft.teamspace.tab.wiki', 'Wiki'],
  ['com.microsoft.teamspace.tab.files.sharepoint', 'Document Library'],
  ['com.microsoft.teamspace.tab.powerbi', 'Power BI'],
  ['81fef3a6-72aa-4648-a763-de824aeafb7d', 'Forms'],
  ['0d820ecd-def2-4297-adad-78056cde7c78', 'OneNote'],
  ['2a527703-1f6f-4559-a332-d8a7d288cd88', 'SharePoint'],
]);

/** The Planner tab's app. */
const PLANNER_APP_ID = 'com.microsoft.teamspace.tab.planner';

/** One checklist item of an embedded task. */
export interface ChecklistItem {
  id: string;
  title: string;
  isChecked: boolean;
}

/** Everything the viewer shows of a team's plan, tags and apps. */
export interface WorkspaceView {
  plans: Array<{
    id: string;
    title: string;
    buckets: Array<{
      id: string;
      name: string;
      tasks: Array<{ title: string; dueDateTime: string | null; checklist: ChecklistItem[] }>;
    }>;
  }>;
  tags: Array<{ displayName: string; description: string | null; members: string[] }>;
  apps: Array<{ id: string; displayName: string }>;
}

/**
 * A team's plan, tags and apps in the embedded tenant, kept as Graph keeps them and refusing what
 * Graph refuses: a group holds one plan (Graph: 403 `MaximumPlannerPlans`), a task at most 20
 * checklist items (403 `MaximumChecklistItemsOnTask`), a tag only members of the team (400) and
 * at least one, an app only from the catalog (404). Each write is one transaction under the team's
 * lock. `call` is the platform's own wrapper (latency, injected faults).
 */
export class EmbeddedWorkspace implements TeamWorkspace {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { publicUrl: () => string; stamp: Stamp },
    private readonly call: <T>(operation: () => Promise<T>) => Promise<T>,
  ) {}

  listPlans(teamId: string): Promise<PlanSummary[]> {
    return this.call(async () => {
      await requireTeam(this.db, teamId);
      return this.db
        .selectFrom('platform_plans')
        .select(['id', 'title'])
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute();
    });
  }

  createPlan(teamId: string, title: string): Promise<PlanSummary> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        const existing = await trx
          .selectFrom('platform_plans')
          .select('id')
          .where('team_id', '=', teamId)
          .executeTakeFirst();
        if (existing) {
          throw new PlatformError('The group already contains a plan (MaximumPlannerPlans).', 403, false);
        }
        const id = randomUUID();
        await trx
          .insertInto('platform_plans')
          .values({ id, team_id: teamId, title, created_at: this.options.stamp() })
          .execute();
        return { id, title };
      }),
    );
  }

  listBuckets(planId: string): Promise<BucketSummary[]> {
    return this.call(async () => {
      await this.plan(this.db, planId);
      const rows = await this.db
        .selectFrom('platform_plan_buckets')
        .select(['id', 'name', 'order_hint'])
        .where('plan_id', '=', planId)
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, orderHint: r.order_hint })).sort(byOrderHint);
    });
  }

  createBucket(planId: string, name: string, after?: BucketSummary): Promise<BucketSummary> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        const plan = await this.plan(trx, planId);
        await lockTeam(trx, plan.team_id);
        const hints = (
          await trx
            .selectFrom('platform_plan_buckets')
            .select('order_hint')
            .where('plan_id', '=', planId)
            .execute()
        )
          .map((r) => r.order_hint)
          .sort();
        // After `after`: a hint just above its own; first: one below the smallest (Planner's " !").
        const orderHint = after ? `${after.orderHint}P` : hints.length > 0 ? `!${hints[0]}` : 'P';
        const id = randomUUID();
        await trx
          .insertInto('platform_plan_buckets')
          .values({
            id,
            team_id: plan.team_id,
            plan_id: planId,
            name,
            order_hint: orderHint,
            created_at: this.options.stamp(),
          })
          .execute();
        return { id, name, orderHint };
      }),
    );
  }

  listTasks(planId: string): Promise<TaskSummary[]> {
    return this.call(async () => {
      await this.plan(this.db, planId);
      const rows = await this.db
        .selectFrom('platform_plan_tasks')
        .select(['id', 'title', 'bucket_id'])
        .where('plan_id', '=', planId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ id: r.id, title: r.title, bucketId: r.bucket_id }));
    });
  }

  createTask(planId: string, task: NewPlannerTask): Promise<TaskSummary> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        const plan = await this.plan(trx, planId);
        await lockTeam(trx, plan.team_id);
        const bucket = await trx
          .selectFrom('platform_plan_buckets')
          .select('id')
          .where('id', '=', task.bucketId)
          .where('plan_id', '=', planId)
          .executeTakeFirst();
        if (!bucket) throw new PlatformError(`The plan has no bucket ${task.bucketId}.`, 400, false);
        const row: PlatformPlanTaskRow = {
          id: randomUUID(),
          team_id: plan.team_id,
          plan_id: planId,
          bucket_id: task.bucketId,
          title: task.title,
          due_date_time: task.dueDateTime ?? null,
          checklist: '[]',
          details_version: 1,
          created_at: this.options.stamp(),
        };
        await trx.insertInto('platform_plan_tasks').values(row).execute();
        return { id: row.id, title: row.title, bucketId: row.bucket_id };
      }),
    );
  }

  addChecklist(taskId: string, titles: readonly string[]): Promise<number> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('platform_plan_tasks')
          .select('team_id')
          .where('id', '=', taskId)
          .executeTakeFirst();
        if (!found) throw new NotFound(`There is no task ${taskId}.`);
        await lockTeam(trx, found.team_id);
        const task = await trx
          .selectFrom('platform_plan_tasks')
          .selectAll()
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow();
        const checklist = JSON.parse(task.checklist) as ChecklistItem[];
        const present = new Set(checklist.map((item) => item.title));
        const missing = titles.filter((title) => !present.has(title));
        if (missing.length === 0) return 0;
        if (checklist.length + missing.length > 20) {
          throw new PlatformError(
            'The task holds at most 20 checklist items (MaximumChecklistItemsOnTask).',
            403,
            false,
          );
        }
        checklist.push(...missing.map((title) => ({ id: randomUUID(), title, isChecked: false })));
        await trx
          .updateTable('platform_plan_tasks')
          .set({ checklist: JSON.stringify(checklist), details_version: task.details_version + 1 })
          .where('id', '=', taskId)
          .execute();
        return missing.length;
      }),
    );
  }

  planTab(teamId: string, planId: string, displayName: string): TeamChannelTabPayload {
    // The embedded tenant shows the plan on the team's own page.
    const url = `${teamWebUrl(this.options.publicUrl(), teamId)}#plan-${encodeURIComponent(planId)}`;
    return {
      displayName,
      teamsAppId: PLANNER_APP_ID,
      configuration: { entityId: planId, contentUrl: url, removeUrl: url, websiteUrl: url },
    };
  }

  listTags(teamId: string): Promise<TagSummary[]> {
    return this.call(async () => {
      await requireTeam(this.db, teamId);
      const rows = await this.db
        .selectFrom('platform_tags')
        .select(['id', 'display_name'])
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ id: r.id, displayName: r.display_name }));
    });
  }

  createTag(teamId: string, tag: NewTag): Promise<TagSummary> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        if (tag.memberIds.length === 0)
          throw new PlatformError('A tag needs at least one member.', 400, false);
        await requireMembers(trx, teamId, tag.memberIds);
        const id = randomUUID();
        await trx
          .insertInto('platform_tags')
          .values({
            id,
            team_id: teamId,
            display_name: tag.displayName,
            description: tag.description ?? null,
            created_at: this.options.stamp(),
          })
          .execute();
        await trx
          .insertInto('platform_tag_members')
          .values([...new Set(tag.memberIds)].map((user_id) => ({ tag_id: id, team_id: teamId, user_id })))
          .execute();
        return { id, displayName: tag.displayName };
      }),
    );
  }

  listTagMembers(teamId: string, tagId: string): Promise<string[]> {
    return this.call(async () => {
      await this.tag(this.db, teamId, tagId);
      const rows = await this.db
        .selectFrom('platform_tag_members')
        .select('user_id')
        .where('tag_id', '=', tagId)
        .execute();
      return rows.map((r) => r.user_id);
    });
  }

  addTagMember(teamId: string, tagId: string, userId: string): Promise<void> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        await this.tag(trx, teamId, tagId);
        await requireMembers(trx, teamId, [userId]);
        await trx
          .insertInto('platform_tag_members')
          .values({ tag_id: tagId, team_id: teamId, user_id: userId })
          .onConflict((oc) => oc.columns(['tag_id', 'user_id']).doNothing())
          .execute();
      }),
    );
  }

  listInstalledApps(teamId: string): Promise<string[]> {
    return this.call(async () => {
      await requireTeam(this.db, teamId);
      const rows = await this.db
        .selectFrom('platform_installed_apps')
        .select('teams_app_id')
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.teams_app_id);
    });
  }

  installApp(teamId: string, teamsAppId: string): Promise<AppInstallation> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        if (!EMBEDDED_APP_CATALOG.has(teamsAppId)) return 'notInCatalog' as const;
        const there = await trx
          .selectFrom('platform_installed_apps')
          .select('teams_app_id')
          .where('team_id', '=', teamId)
          .where('teams_app_id', '=', teamsAppId)
          .executeTakeFirst();
        if (there) return 'alreadyInstalled' as const;
        await trx
          .insertInto('platform_installed_apps')
          .values({ team_id: teamId, teams_app_id: teamsAppId, created_at: this.options.stamp() })
          .execute();
        return 'installed' as const;
      }),
    );
  }

  /** The team's plans, tags and apps for the viewer (no latency, no faults: not a port call). */
  async view(teamId: string): Promise<WorkspaceView> {
    const [plans, buckets, tasks, tags, tagMembers, apps] = await Promise.all([
      this.db
        .selectFrom('platform_plans')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute(),
      this.db.selectFrom('platform_plan_buckets').selectAll().where('team_id', '=', teamId).execute(),
      this.db
        .selectFrom('platform_plan_tasks')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('platform_tags')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute(),
      this.db
        .selectFrom('platform_tag_members')
        .leftJoin('directory_users', 'directory_users.id', 'platform_tag_members.user_id')
        .select([
          'platform_tag_members.tag_id',
          'platform_tag_members.user_id',
          'directory_users.display_name',
        ])
        .where('platform_tag_members.team_id', '=', teamId)
        .execute(),
      this.db
        .selectFrom('platform_installed_apps')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute(),
    ]);
    return {
      plans: plans.map((plan) => ({
        id: plan.id,
        title: plan.title,
        buckets: buckets
          .filter((b) => b.plan_id === plan.id)
          .map((b) => ({ id: b.id, name: b.name, orderHint: b.order_hint }))
          .sort(byOrderHint)
          .map((bucket) => ({
            id: bucket.id,
            name: bucket.name,
            tasks: tasks
              .filter((t) => t.bucket_id === bucket.id)
              .map((t) => ({
                title: t.title,
                dueDateTime: t.due_date_time,
                checklist: JSON.parse(t.checklist) as ChecklistItem[],
              })),
          })),
      })),
      tags: tags.map((tag) => ({
        displayName: tag.display_name,
        description: tag.description,
        members: tagMembers
          .filter((m) => m.tag_id === tag.id)
          .map((m) => m.display_name ?? m.user_id)
          .sort((a, b) => a.localeCompare(b)),
      })),
      apps: apps.map((app) => ({
        id: app.teams_app_id,
        displayName: EMBEDDED_APP_CATALOG.get(app.teams_app_id) ?? app.teams_app_id,
      })),
    };
  }

  private async plan(db: Kysely<Database> | Transaction<Database>, planId: string) {
    const plan = await db
      .selectFrom('platform_plans')
      .selectAll()
      .where('id', '=', planId)
      .executeTakeFirst();
    if (!plan) throw new NotFound(`There is no plan ${planId}.`);
    return plan;
  }

  private async tag(
    db: Kysely<Database> | Transaction<Database>,
    teamId: string,
    tagId: string,
  ): Promise<void> {
    const tag = await db
      .selectFrom('platform_tags')
      .select('id')
      .where('id', '=', tagId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (!tag) throw new NotFound(`Team ${teamId} has no tag ${tagId}.`);
  }
}

/** Graph refuses a tag member who is not in the team (400). */
async function requireMembers(
  trx: Transaction<Database>,
  teamId: string,
  userIds: readonly string[],
): Promise<void> {
  const rows = await trx
    .selectFrom('platform_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', 'in', [...userIds])
    .execute();
  const members = new Set(rows.map((r) => r.user_id));
  const outside = userIds.filter((id) => !members.has(id));
  if (outside.length > 0) {
    throw new PlatformError(
      `A tag's members must be members of the team (${outside.length} are not).`,
      400,
      false,
    );
  }
}

/** Planner sorts by order hint in ordinal (not locale) order. */
function byOrderHint(a: { orderHint: string }, b: { orderHint: string }): number {
  return a.orderHint < b.orderHint ? -1 : a.orderHint > b.orderHint ? 1 : 0;
}
