import { counted } from '../../lib/counted';
import type { CatalogTemplate, TemplateApp, TemplatePlanner, TemplateTag } from '../../contract';
import type { BucketSummary, TeamWorkspace } from '../../platform/teamTools';
import type { ProvisioningPlan } from '../jobData/provisioningData';

/*
 * A template's plan, tags and apps laid out in a team: provisioning makes them in a new team
 * (`provisioning/job/teamToolsSteps.ts`), drift adds what an existing team lacks. Each reads what
 * exists before it makes anything (the group's plans by title, the plan's buckets by name, its
 * tasks by bucket and title, a task's checklist by title, the team's tags by name and its
 * installed apps by id), so running one again makes nothing twice.
 */

/** The template's plan, tags and apps as the job's plan carries them (nothing when it has none). */
export function workspacePlan(
  newTeam: CatalogTemplate['newTeam'],
): Pick<ProvisioningPlan, 'planner' | 'tags' | 'apps'> {
  return {
    ...(newTeam.planner ? { planner: newTeam.planner } : {}),
    ...(newTeam.tags?.length ? { tags: newTeam.tags } : {}),
    ...(newTeam.apps?.length ? { apps: newTeam.apps } : {}),
  };
}

/**
 * When a task `dueInDays` after the request is due: noon UTC of that day, which is that same
 * calendar day from UTC−11 to UTC+11. Counted from the job's creation, so every run of the job
 * gives the same date.
 */
export function dueDateTime(requestedAt: string, dueInDays: number): string {
  const day = new Date(requestedAt);
  day.setUTCHours(12, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + dueInDays);
  return day.toISOString();
}

/** The line a made tag gives the log. Makes the template's `tag` with `people` (user ids, at least one). */
export async function createTemplateTag(
  workspace: TeamWorkspace,
  teamId: string,
  tag: TemplateTag,
  people: readonly string[],
): Promise<string> {
  await workspace.createTag(teamId, {
    displayName: tag.displayName,
    ...(tag.description ? { description: tag.description } : {}),
    memberIds: people,
  });
  return `${tag.displayName} (${counted(people.length, 'person', 'people')})`;
}

/**
 * Installs one of the template's apps: `installed` when it was installed now, `skipped` with the
 * log's line when the organisation's catalog lacks it (never a reason to fail a job: the team is
 * usable without it).
 */
export async function installTemplateApp(
  workspace: TeamWorkspace,
  teamId: string,
  app: TemplateApp,
): Promise<{ installed: boolean; skipped?: string }> {
  const outcome = await workspace.installApp(teamId, app.teamsAppId);
  if (outcome === 'notInCatalog')
    return {
      installed: false,
      skipped:
        `Skipped the app "${app.displayName ?? app.teamsAppId}" (${app.teamsAppId}): it is not in the organisation's app catalog. ` +
        'An administrator can add it to the catalog, then install it in the team.',
    };
  return { installed: outcome === 'installed' };
}

/**
 * The plan titled `title` (found or made), its buckets in the template's order, their tasks with
 * due dates counted from `requestedAt` and their checklists. With `only`, just the buckets of those
 * names (lower-cased) are made and filled, placed after the ones before them: the others, and
 * everything else of the plan, are left as they are. Returns the plan's id and the log's line.
 */
export async function layOutPlan(
  workspace: TeamWorkspace,
  teamId: string,
  title: string,
  planner: TemplatePlanner,
  requestedAt: string,
  only?: ReadonlySet<string>,
): Promise<{ planId: string; log: string }> {
  const found = (await workspace.listPlans(teamId)).find((p) => p.title === title);
  const planId = found?.id ?? (await workspace.createPlan(teamId, title)).id;

  const buckets = new Map((await workspace.listBuckets(planId)).map((b) => [b.name.toLowerCase(), b]));
  const tasks = new Map(
    found ? (await workspace.listTasks(planId)).map((t) => [`${t.bucketId}\n${t.title}`, t.id]) : [],
  );
  let madeBuckets = 0;
  let madeTasks = 0;
  let checklistItems = 0;
  let previous: BucketSummary | undefined;
  for (const wanted of planner.buckets) {
    let bucket = buckets.get(wanted.name.toLowerCase());
    const chosen = !only || only.has(wanted.name.toLowerCase());
    if (!bucket && !chosen) continue;
    if (!bucket) {
      bucket = await workspace.createBucket(planId, wanted.name, previous);
      madeBuckets++;
    }
    previous = bucket;
    if (!chosen) continue;
    for (const task of wanted.tasks) {
      let taskId = tasks.get(`${bucket.id}\n${task.title}`);
      if (!taskId) {
        taskId = (
          await workspace.createTask(planId, {
            bucketId: bucket.id,
            title: task.title,
            ...(task.dueInDays !== undefined
              ? { dueDateTime: dueDateTime(requestedAt, task.dueInDays) }
              : {}),
          })
        ).id;
        madeTasks++;
      }
      if (task.checklist.length > 0) checklistItems += await workspace.addChecklist(taskId, task.checklist);
    }
  }
  return {
    planId,
    log:
      `${found ? 'Found' : 'Made'} the plan "${title}"` +
      (madeBuckets + madeTasks + checklistItems > 0
        ? ` and added ${counted(madeBuckets, 'bucket')}, ${counted(madeTasks, 'task')} and ${counted(checklistItems, 'checklist item')}.`
        : ', complete already.'),
  };
}
