import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { TeamChannelTabPayload } from '../../contract';
import type { Database, PlatformPlanTaskRow } from '../../store/schema';
import { PlatformError } from '../port';
import type { BucketSummary, NewPlannerTask, PlanSummary, TaskSummary } from '../teamTools';
import type { Stamp } from './teamCreation';
import { lockTeam } from './teamRecords';
import { requireTeam, teamWebUrl } from './teamRows';

/** The Planner tab's app. */
const PLANNER_APP_ID = 'com.microsoft.teamspace.tab.planner';

/** One checklist item of an embedded task. */
export interface ChecklistItem {
  id: string;
  title: string;
  isChecked: boolean;
}

/**
 * A team's plan in the embedded tenant, kept as Graph keeps it and refusing what Graph refuses: a
 * group holds one plan (Graph: 403 `MaximumPlannerPlans`), a task at most 20 checklist items (403
 * `MaximumChecklistItemsOnTask`). Each write is one transaction under the team's lock.
 */
export class EmbeddedPlanner {
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

  private async plan(db: Kysely<Database> | Transaction<Database>, planId: string) {
    const plan = await db
      .selectFrom('platform_plans')
      .selectAll()
      .where('id', '=', planId)
      .executeTakeFirst();
    if (!plan) throw new NotFound(`There is no plan ${planId}.`);
    return plan;
  }
}

/** Planner sorts by order hint in ordinal (not locale) order. */
export function byOrderHint(a: { orderHint: string }, b: { orderHint: string }): number {
  return a.orderHint < b.orderHint ? -1 : a.orderHint > b.orderHint ? 1 : 0;
}
