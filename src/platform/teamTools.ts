import type { TeamChannelTabPayload } from '../contract';

/*
 * What a template builds inside a team besides channels and tabs (docs/guides/templates.md): a Planner plan with
 * buckets, tasks and checklists, team tags, and apps installed from the organisation's catalog.
 * Each platform holds them its own way (Microsoft Graph's Planner and Teams APIs, the embedded
 * tenant's tables); the provisioning job's steps (`services/provisioning/job/teamToolsSteps.ts`)
 * read what exists before making anything, so a resumed job makes nothing twice.
 */

/** A plan of a team's group. */
export interface PlanSummary {
  id: string;
  title: string;
}

/** A bucket of a plan; `orderHint` orders the plan's buckets (Planner's order-hint format). */
export interface BucketSummary {
  id: string;
  name: string;
  orderHint: string;
}

/** A task of a plan, in its bucket. */
export interface TaskSummary {
  id: string;
  title: string;
  bucketId: string | null;
}

/** A task to make: its bucket, title and due date (an ISO 8601 instant, UTC). */
export interface NewPlannerTask {
  bucketId: string;
  title: string;
  dueDateTime?: string;
}

/** A tag of a team. */
export interface TagSummary {
  id: string;
  displayName: string;
}

/** A tag to make, with the user ids of its members (at least one). */
export interface NewTag {
  displayName: string;
  description?: string;
  memberIds: readonly string[];
}

/** What became of installing an app: installed now, there already, or not in the catalog. */
export type AppInstallation = 'installed' | 'alreadyInstalled' | 'notInCatalog';

/** A team's plan, tags and apps, on whichever platform holds the team. Unknown ids throw NotFound. */
export interface TeamWorkspace {
  /** The plans of the team's group. */
  listPlans(teamId: string): Promise<PlanSummary[]>;
  /** Makes a plan in the team's group. */
  createPlan(teamId: string, title: string): Promise<PlanSummary>;
  /** The plan's buckets, in their order. */
  listBuckets(planId: string): Promise<BucketSummary[]>;
  /** Makes a bucket placed right after `after` (the first place when absent). */
  createBucket(planId: string, name: string, after?: BucketSummary): Promise<BucketSummary>;
  /** The plan's tasks. */
  listTasks(planId: string): Promise<TaskSummary[]>;
  createTask(planId: string, task: NewPlannerTask): Promise<TaskSummary>;
  /**
   * Gives the task these checklist items, adding those it lacks (by title) and leaving the rest as
   * they are; returns how many were added. Safe to repeat.
   */
  addChecklist(taskId: string, titles: readonly string[]): Promise<number>;
  /** The tab that shows the plan in a channel (its app and configuration), to pin as any tab. */
  planTab(teamId: string, planId: string, displayName: string): TeamChannelTabPayload;
  listTags(teamId: string): Promise<TagSummary[]>;
  /** Makes a tag with its members (the platform adds beyond what one request carries). */
  createTag(teamId: string, tag: NewTag): Promise<TagSummary>;
  /** The user ids of a tag's members. */
  listTagMembers(teamId: string, tagId: string): Promise<string[]>;
  addTagMember(teamId: string, tagId: string, userId: string): Promise<void>;
  /** The catalog ids of the apps installed in the team. */
  listInstalledApps(teamId: string): Promise<string[]>;
  /** Installs an app of the organisation's catalog; one the catalog lacks is answered, not thrown. */
  installApp(teamId: string, teamsAppId: string): Promise<AppInstallation>;
}
