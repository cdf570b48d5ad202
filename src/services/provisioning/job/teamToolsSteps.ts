import { tagPeople, type TemplatePlanner } from '../../../contract';
import type { TeamsPlatform } from '../../../platform/port';
import type { JobRun, StepResult } from '../../jobs/jobType';
import type { ProvisioningData } from '../../jobData/provisioningData';
import { createTemplateTag, installTemplateApp, layOutPlan } from '../../workspace/teamTools';
import type { ProvisioningStep } from './steps';

/**
 * The steps that build a template's plan, tags and apps in the new team (docs/guides/templates.md):
 * `planner`, `tags` and `apps`, after the members step (a tag's members must be in the team). Like
 * the other steps, each reads what exists before it makes anything (`workspace/teamTools.ts`), so
 * a job resumed after a crash makes nothing twice; what it finds it completes (a checklist missing
 * items, a tag missing members).
 */

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
