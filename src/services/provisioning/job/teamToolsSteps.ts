import { counted } from '../../../lib/counted';
import { type CatalogTemplate, tagPeople, type TemplatePlanner } from '../../../contract';
import type { TeamsPlatform } from '../../../platform/port';
import type { BucketSummary, TeamWorkspace } from '../../../platform/teamTools';
import type { JobRun, StepResult } from '../../jobs/jobType';
import type { ProvisioningData, ProvisioningPlan } from './data';
import type { ProvisioningStep } from './steps';

/**
 * The steps that build a template's plan, tags and apps in the new team (issue 28): `planner`,
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
          await workspace.createTag(teamId(), {
            displayName: tag.displayName,
            ...(tag.description ? { description: tag.description } : {}),
            memberIds: people,
          });
          made.push(`${tag.displayName} (${counted(people.length, 'person', 'people')})`);
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
        const outcome = await workspace.installApp(teamId(), app.teamsAppId);
        installed.add(app.teamsAppId);
        if (outcome === 'notInCatalog') {
          // Never a reason to fail the job: the team is usable without it, and the log says why.
          log.push(
            `Skipped the app "${name}" (${app.teamsAppId}): it is not in the organisation's app catalog. ` +
              'An administrator can add it to the catalog, then install it in the team.',
          );
        } else if (outcome === 'installed') added.push(name);
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
  const workspace: TeamWorkspace = teams.workspace;
  const title = planner.title ?? run.data.plan.displayName;
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
    if (!bucket) {
      bucket = await workspace.createBucket(planId, wanted.name, previous);
      madeBuckets++;
    }
    previous = bucket;
    for (const task of wanted.tasks) {
      let taskId = tasks.get(`${bucket.id}\n${task.title}`);
      if (!taskId) {
        taskId = (
          await workspace.createTask(planId, {
            bucketId: bucket.id,
            title: task.title,
            ...(task.dueInDays !== undefined
              ? { dueDateTime: dueDateTime(run.job.createdAt, task.dueInDays) }
              : {}),
          })
        ).id;
        madeTasks++;
      }
      if (task.checklist.length > 0) checklistItems += await workspace.addChecklist(taskId, task.checklist);
    }
  }

  const log = [
    `${found ? 'Found' : 'Made'} the plan "${title}"` +
      (madeBuckets + madeTasks + checklistItems > 0
        ? ` and added ${counted(madeBuckets, 'bucket')}, ${counted(madeTasks, 'task')} and ${counted(checklistItems, 'checklist item')}.`
        : ', complete already.'),
  ];
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
        await teams.createTab(teamId, channelId, workspace.planTab(teamId, planId, planner.tab.displayName), {
          withApp: false,
        });
        log.push(`Pinned the plan as the tab "${planner.tab.displayName}" in ${planner.tab.channel}.`);
      }
    }
  }
  return { log, data: { ...run.data, planId } };
}
