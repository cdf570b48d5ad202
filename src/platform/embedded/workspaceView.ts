import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema';
import { EMBEDDED_APP_CATALOG } from './apps';
import { byOrderHint, type ChecklistItem } from './planner';

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

/** The team's plans, tags and apps for the viewer (no latency, no faults: not a port call). */
export async function readWorkspace(db: Kysely<Database>, teamId: string): Promise<WorkspaceView> {
  const [plans, buckets, tasks, tags, tagMembers, apps] = await Promise.all([
    db.selectFrom('platform_plans').selectAll().where('team_id', '=', teamId).orderBy('created_at').execute(),
    db.selectFrom('platform_plan_buckets').selectAll().where('team_id', '=', teamId).execute(),
    db
      .selectFrom('platform_plan_tasks')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('platform_tags').selectAll().where('team_id', '=', teamId).orderBy('created_at').execute(),
    db
      .selectFrom('platform_tag_members')
      .leftJoin('directory_users', 'directory_users.id', 'platform_tag_members.user_id')
      .select(['platform_tag_members.tag_id', 'platform_tag_members.user_id', 'directory_users.display_name'])
      .where('platform_tag_members.team_id', '=', teamId)
      .execute(),
    db
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
