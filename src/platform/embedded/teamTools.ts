import type { Kysely } from 'kysely';
import type { TeamChannelTabPayload } from '../../contract';
import type { Database } from '../../store/schema';
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
import { EmbeddedApps } from './apps';
import { EmbeddedPlanner } from './planner';
import { EmbeddedTags } from './tags';
import type { Stamp } from './teamCreation';
import { readWorkspace, type WorkspaceView } from './workspaceView';

/**
 * A team's plan, tags and apps in the embedded tenant, kept as Graph keeps them and refusing what
 * Graph refuses (`planner.ts`, `tags.ts`, `apps.ts`). `call` is the platform's own wrapper
 * (latency, injected faults); `view` is what the viewer shows (`workspaceView.ts`).
 */
export class EmbeddedWorkspace implements TeamWorkspace {
  private readonly planner: EmbeddedPlanner;
  private readonly tags: EmbeddedTags;
  private readonly apps: EmbeddedApps;

  constructor(
    private readonly db: Kysely<Database>,
    options: { publicUrl: () => string; stamp: Stamp },
    call: <T>(operation: () => Promise<T>) => Promise<T>,
  ) {
    this.planner = new EmbeddedPlanner(db, options, call);
    this.tags = new EmbeddedTags(db, options, call);
    this.apps = new EmbeddedApps(db, options, call);
  }

  listPlans(teamId: string): Promise<PlanSummary[]> {
    return this.planner.listPlans(teamId);
  }

  createPlan(teamId: string, title: string): Promise<PlanSummary> {
    return this.planner.createPlan(teamId, title);
  }

  listBuckets(planId: string): Promise<BucketSummary[]> {
    return this.planner.listBuckets(planId);
  }

  createBucket(planId: string, name: string, after?: BucketSummary): Promise<BucketSummary> {
    return this.planner.createBucket(planId, name, after);
  }

  listTasks(planId: string): Promise<TaskSummary[]> {
    return this.planner.listTasks(planId);
  }

  createTask(planId: string, task: NewPlannerTask): Promise<TaskSummary> {
    return this.planner.createTask(planId, task);
  }

  addChecklist(taskId: string, titles: readonly string[]): Promise<number> {
    return this.planner.addChecklist(taskId, titles);
  }

  planTab(teamId: string, planId: string, displayName: string): TeamChannelTabPayload {
    return this.planner.planTab(teamId, planId, displayName);
  }

  listTags(teamId: string): Promise<TagSummary[]> {
    return this.tags.listTags(teamId);
  }

  createTag(teamId: string, tag: NewTag): Promise<TagSummary> {
    return this.tags.createTag(teamId, tag);
  }

  listTagMembers(teamId: string, tagId: string): Promise<string[]> {
    return this.tags.listTagMembers(teamId, tagId);
  }

  addTagMember(teamId: string, tagId: string, userId: string): Promise<void> {
    return this.tags.addTagMember(teamId, tagId, userId);
  }

  listInstalledApps(teamId: string): Promise<string[]> {
    return this.apps.listInstalledApps(teamId);
  }

  installApp(teamId: string, teamsAppId: string): Promise<AppInstallation> {
    return this.apps.installApp(teamId, teamsAppId);
  }

  /** The team's plans, tags and apps for the viewer (no latency, no faults: not a port call). */
  view(teamId: string): Promise<WorkspaceView> {
    return readWorkspace(this.db, teamId);
  }
}
