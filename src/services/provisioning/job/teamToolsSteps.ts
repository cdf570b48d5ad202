import { counted } from '../../../lib/counted';
import {
  type CatalogTemplate,
  tagPeople,
  type TemplateApp,
  type TemplatePlanner,
  type TemplateTag,
} from '../../../contract';
import type { TeamsPlatform } from '../../../platform/port';
import type { BucketSummary, TeamWorkspace } from '../../../platform/teamTools';
import type { JobRun, StepResult } from '../../jobs/jobType';
import type { ProvisioningData, ProvisioningPlan } from './data';
import type { ProvisioningStep } from './steps';

/**
 * The steps that build a template's plan, tags and apps in the new team (docs/guides/templates.md): `planner`,
 * `tags` and `apps`, after the members step (a tag's members must be in the team). Like the other
 * steps, each reads what exists before it makes anything (the group's plans by title, the plan's
 * buckets by name, its tasks by bucket and title, a task's checklist by title, the team's tags by
 * name and its installed apps by id), so a job resumed after a crash makes nothing twice; what it
 * finds it completes (a checklist missing items, a tag missing members).
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

/** Runs the planner, tags and apps steps of a provisioning job, those its template has. */
export async function runWorkspaceSteps(
  run: JobRun<ProvisioningData, ProvisioningStep>,
  teams: TeamsPlatform,
): Promise<void> {
  const teamId = () => run.job.checkpoint.teamId!;
  const plan = run.data.plan;

  const planner = plan.planner;
  if (planner) await run.step('planner', () => plannerStep(run, teams, teamId(), planner));

  const tags = plan.tags ?? [];
  if (tags.length > 0)
    await run.step('tags', async () => {
      const workspace = teams.workspace;
      const existing = new Map(
        (await workspace.listTags(teamId())).map((t) => [t.displayName.toLowerCase(), t]),
      );
      const made: string[] = [];
      const log: string[] = [];
      for (const tag of tags) {
        const people = tagPeople(plan.members, tag.members).map((m) => m.id);
        if (people.length === 0) {
          log.push(`Skipped the tag "${tag.displayName}": the request has nobody among its ${tag.members}.`);
          continue;
        }
        const found = existing.get(tag.displayName.toLowerCase());
        if (!found) {
          made.push(await createTemplateTag(workspace, teamId(), tag, people));
          continue;
        }
        // Found: an earlier run made it, and may have stopped before adding all of its members.
        const members = new Set(await workspace.listTagMembers(teamId(), found.id));
        const missing = people.filter((id) => !members.has(id));
        for (const id of missing) await workspace.addTagMember(teamId(), found.id, id);
        if (missing.length > 0)
          log.push(`Completed the tag "${tag.displayName}" (${missing.length} added now).`);
      }
      if (made.length > 0) log.unshift(`Made tags: ${made.join(', ')}.`);
      return { log };
    });

  const apps = plan.apps ?? [];
  if (apps.length > 0)
    await run.step('apps', async () => {
      const workspace = teams.workspace;
      const installed = new Set(await workspace.listInstalledApps(teamId()));
      const added: string[] = [];
      const log: string[] = [];
      for (const app of apps) {
        const name = app.displayName ?? app.teamsAppId;
        if (installed.has(app.teamsAppId)) continue;
        const outcome = await installTemplateApp(workspace, teamId(), app);
        installed.add(app.teamsAppId);
        if (outcome.skipped) log.push(outcome.skipped);
        else if (outcome.installed) added.push(name);
      }
      if (added.length > 0) log.unshift(`Installed apps: ${added.join(', ')}.`);
      return { log };
    });
}

/** The plan, its buckets in order, their tasks with due dates and checklists, and its tab. */
async function plannerStep(
  run: JobRun<ProvisioningData, ProvisioningStep>,
  teams: TeamsPlatform,
  teamId: string,
  planner: TemplatePlanner,
): Promise<StepResult<ProvisioningData>> {
  const title = planner.title ?? run.data.plan.displayName;
  const made = await layOutPlan(teams.workspace, teamId, title, planner, run.job.createdAt);
  const planId = made.planId;
  const log = [made.log];
  if (planner.tab) {
    const channelIds = run.data.channelIds ?? {};
    const channelId =
      channelIds[planner.tab.channel.toLowerCase()] ??
      (await teams.listChannels(teamId)).find(
        (c) => c.displayName.toLowerCase() === planner.tab!.channel.toLowerCase(),
      )?.id ??
      (planner.tab.channel.toLowerCase() === 'general' ? (await teams.primaryChannel(teamId)).id : undefined);
    if (!channelId) {
      log.push(`No tab shows the plan: the team has no channel "${planner.tab.channel}".`);
    } else {
      const tabs = await teams.listTabs(teamId, channelId);
      if (!tabs.some((t) => t.displayName === planner.tab!.displayName)) {
        await teams.createTab(
          teamId,
          channelId,
          teams.workspace.planTab(teamId, planId, planner.tab.displayName),
          {
            withApp: false,
          },
        );
        log.push(`Pinned the plan as the tab "${planner.tab.displayName}" in ${planner.tab.channel}.`);
      }
    }
  }
  return { log, data: { ...run.data, planId } };
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
