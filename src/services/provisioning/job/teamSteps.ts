import { counted } from '../../../lib/counted';
import { JobCannotRun } from '../../../domain/errors';
import type { TeamsPlatform } from '../../../platform/port';
import type { JobRun, StepResult } from '../../jobs/jobType';
import type { SensitivityLabels } from '../../labels/sensitivityLabels';
import type { ProvisioningData, ProvisioningPlan } from '../../jobData/provisioningData';
import {
  applyTemplateSettings,
  channelsWithFiles,
  createOrFindChannel,
  creationSettings,
  layOutChannelFiles,
  scopedOperation,
} from '../../workspace/workspaceSteps';
import type { ProvisioningStep } from './steps';

/*
 * The work of the provisioning steps that make the team and lay it out (`handler.ts` runs them in
 * order). Each is safe to run again: the team is found by the job's provisioning key, channels and
 * tabs by name, and members are added idempotently.
 */

/** What the steps of one run of a provisioning job share. */
export interface TeamSteps {
  readonly run: JobRun<ProvisioningData, ProvisioningStep>;
  readonly teams: TeamsPlatform;
  /** The plan, fixed when the request was accepted. */
  readonly plan: ProvisioningPlan;
  /** The team's first owner (the requester when the plan names none). */
  readonly ownerId: string;
  /** The team, once the team step made or found it. */
  teamId(): string;
  /**
   * Channels this run of the job made: none of their tabs can exist yet, so the tabs step pins
   * theirs without reading the channel first. A run that ends (a crash, a park) forgets them, and
   * the next run reads every channel again, which keeps the tabs step safe to repeat.
   */
  readonly madeNow: Set<string>;
}

/** The steps' shared state for one run. */
export function teamSteps(run: TeamSteps['run'], teams: TeamsPlatform): TeamSteps {
  const plan = run.data.plan;
  return {
    run,
    teams,
    plan,
    ownerId: plan.members.find((m) => m.role === 'owner')?.id ?? run.data.requester.id,
    teamId: () => run.job.checkpoint.teamId!,
    madeNow: new Set<string>(),
  };
}

type Step = Promise<StepResult<ProvisioningData>>;

/** What a new team is asked with, whether created or cloned. */
interface TeamSpec {
  displayName: string;
  description: string;
  visibility: 'public' | 'private';
  mailNickname: string;
  ownerId: string;
  provisioningKey: string;
}

/** `team`: creates or clones the team, or finds the one an earlier attempt made. */
export async function teamStep(c: TeamSteps): Step {
  // A step back from a park goes on following its operation; otherwise an earlier attempt
  // may have got as far as a team, found by the job's provisioning key. A new team's creation
  // finds that team itself (`found`), so only a clone looks for it first.
  const resuming = c.run.operation.state !== undefined;
  const earlier =
    resuming || !c.plan.clone ? undefined : await c.teams.findTeamByProvisioningKey(c.run.job.id);
  const spec = {
    displayName: c.plan.displayName,
    description: c.plan.description,
    visibility: c.plan.visibility,
    mailNickname: c.plan.mailNickname,
    ownerId: c.ownerId,
    provisioningKey: c.run.job.id,
  };
  const team = earlier ?? (await makeTeam(c, spec));
  // A clone starts with the source's members (or none): its owner joins at once, before channels
  // (a private channel needs its owner in the team).
  if (c.plan.clone && !earlier) await c.teams.addMembers(team.id, [{ id: c.ownerId, role: 'owner' }]);
  const how =
    earlier || ('found' in team && team.found)
      ? 'Found team'
      : c.plan.clone
        ? `Cloned "${c.plan.clone.teamName ?? c.plan.clone.teamId}" as team`
        : 'Created team';
  return {
    teamId: team.id,
    data: { ...c.run.data, team: { id: team.id, displayName: team.displayName, webUrl: team.webUrl } },
    log: [`${how} "${team.displayName}" (${team.id}).`],
  };
}

/**
 * Clones the plan's team or creates it. Graph's clone cannot be found by anything we chose: its
 * operation goes with the job (`run.operation`), so a resumed job waits for it instead of cloning
 * again.
 */
function makeTeam(c: TeamSteps, spec: TeamSpec) {
  const { plan, teams, run } = c;
  if (!plan.clone) {
    return teams.createTeam(
      { ...spec, members: plan.members, settings: creationSettings(plan) },
      run.operation,
    );
  }
  const { clone } = plan;
  const parts = {
    apps: clone.includeApps,
    tabs: clone.includeTabs,
    settings: clone.includeSettings,
    channels: clone.includeChannels,
    members: clone.includeMembers,
  };
  return teams.cloneTeam({ ...spec, sourceTeamId: clone.teamId, parts }, run.operation);
}

/** `settings`: visibility, the template's settings and its sensitivity label. */
export async function settingsStep(c: TeamSteps, labels: SensitivityLabels): Step {
  const log: string[] = [];
  if (c.plan.clone) {
    await c.teams.updateTeam(c.teamId(), { visibility: c.plan.visibility, description: c.plan.description });
    log.push(`The copy is ${c.plan.visibility}, as the template asks.`);
  } else log.push(`The team is ${c.plan.visibility}.`);
  log.push(...(await applyTemplateSettings(c.teams, c.teamId(), c.plan)));
  const labelId = c.plan.sensitivityLabelId;
  const team = c.run.data.team;
  if (!labelId || !team) return { log };
  // Never a reason to fail the job: the team exists and is usable without its label.
  const label = await labels.applyForJob({
    id: c.run.job.id,
    team,
    templateId: c.run.data.template.id,
    labelId,
    owners: c.plan.members.filter((m) => m.role === 'owner').map((m) => m.id),
  });
  log.push(
    label.status === 'applied'
      ? `Applied the sensitivity label ${labelId} with the authority of ${nameOf(c.run.data, label.appliedBy)}.`
      : `The team has no sensitivity label yet (${labelId}): ${label.reason} An owner can apply it with "Apply the label".`,
  );
  return { log, data: { ...c.run.data, label } };
}

/** `channels`: the template's channels the team lacks. */
export async function channelsStep(c: TeamSteps): Step {
  const channelIds = await channelIdsOf(c.teams, c.teamId());
  const created: string[] = [];
  for (const channel of c.plan.channels) {
    if (channelIds[channel.displayName.toLowerCase()]) continue;
    // A shared channel is made asynchronously on Graph: its wait is this channel's own.
    const operation = scopedOperation(c.run.operation, `channel:${channel.displayName.toLowerCase()}`);
    const made = await createOrFindChannel(c.teams, c.teamId(), channel, c.ownerId, operation);
    channelIds[channel.displayName.toLowerCase()] = made.id;
    c.madeNow.add(made.id);
    created.push(channel.displayName);
  }
  return {
    data: { ...c.run.data, channelIds },
    log: created.length > 0 ? [`Created channels: ${created.join(', ')}.`] : [],
  };
}

/** `tabs`: the template's tabs the channels lack. */
export async function tabsStep(c: TeamSteps): Step {
  // The channels step's ids; read again only for a job queued before it recorded them.
  const channelIds = c.run.data.channelIds ?? (await channelIdsOf(c.teams, c.teamId()));
  const created: string[] = [];
  const pinned = new Set<string>();
  for (const tab of c.plan.tabs) {
    const channelId = channelIds[tab.channel.toLowerCase()];
    if (!channelId)
      throw new JobCannotRun(
        `The tab "${tab.displayName}" names a channel "${tab.channel}" the team does not have.`,
      );
    const key = `${channelId}\n${tab.displayName}`;
    if (c.madeNow.has(channelId)) {
      if (pinned.has(key)) continue;
    } else {
      const tabs = await c.teams.listTabs(c.teamId(), channelId);
      if (tabs.some((t) => t.displayName === tab.displayName)) continue;
    }
    // Nothing here reads the tab back: its app's details are for API callers, not this job.
    await c.teams.createTab(c.teamId(), channelId, tab, { withApp: false });
    pinned.add(key);
    created.push(`${tab.displayName} (${tab.channel})`);
  }
  return { log: created.length > 0 ? [`Created tabs: ${created.join(', ')}.`] : [] };
}

/** `members`: the plan's owners and members the team did not get at creation. */
export async function membersStep(c: TeamSteps): Step {
  const owners = c.plan.members.filter((m) => m.role === 'owner').length;
  const counts = `${counted(owners, 'owner')} and ${counted(c.plan.members.length - owners, 'member')}`;
  // Those the team got at creation are already there; only the rest is added, in bulk. When
  // its creation request carried everyone, there is nobody to add and nothing to read.
  const atCreation = c.plan.clone
    ? []
    : c.teams.membersAtCreation({ ownerId: c.ownerId, members: c.plan.members });
  const placed = new Set(atCreation.map((m) => `${m.role}:${m.id}`));
  if (c.plan.members.every((m) => placed.has(`${m.role}:${m.id}`))) {
    return { log: [`The team has its ${counts}, all in its creation request.`] };
  }
  const { added, changed } = await c.teams.addMembers(c.teamId(), c.plan.members);
  return {
    log: [`The team has its ${counts}${changesSaid(added, changed)}.`],
  };
}

/** `welcome`: the welcome message, when the plan has one. */
export async function welcomeStep(c: TeamSteps): Step {
  if (!c.plan.welcomeMessage.trim()) return { skipped: true };
  const outcome = await c.teams.welcome(c.teamId(), c.plan.welcomeMessage, c.run.data.channelIds?.general);
  if ('skipped' in outcome)
    return { skipped: true, log: [`Skipped the welcome message: ${outcome.skipped}`] };
  return { log: [outcome.posted] };
}

/** `files`: each channel's folders and starter files. */
export async function filesStep(c: TeamSteps): Step {
  if (channelsWithFiles(c.plan).length === 0) return { skipped: true };
  const channelIds = c.run.data.channelIds ?? (await channelIdsOf(c.teams, c.teamId()));
  return { log: await layOutChannelFiles(c.teams, c.teamId(), c.plan, channelIds, c.run.operation) };
}

/**
 * The team's channels by lower-cased name, General under `general` whatever the platform calls it:
 * one read of the channels, and one of the primary channel only when none is named General.
 */
async function channelIdsOf(teams: TeamsPlatform, teamId: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const channel of await teams.listChannels(teamId)) ids[channel.displayName.toLowerCase()] = channel.id;
  ids.general ??= (await teams.primaryChannel(teamId)).id;
  return ids;
}

/** The name of the person whose authority applied the label: requester, approver or planned member. */
function nameOf(data: ProvisioningData, id: string | undefined): string {
  if (!id) return 'nobody';
  if (data.requester.id === id) return data.requester.displayName;
  const votes = (data.approval?.stages ?? []).flatMap((stage) => stage.votes ?? []);
  const people: Array<{ id: string; name?: string | null }> = [
    ...votes,
    ...(data.approval?.approvers ?? []),
    ...data.plan.members.map((m) => ({ id: m.id, name: m.displayName })),
  ];
  return people.find((p) => p.id === id && p.name)?.name ?? id;
}

/** What the members step changed, as a sentence's end: " (2 added now, 1 role changed)", or nothing. */
function changesSaid(added: number, changed: number): string {
  const said = [
    ...(added > 0 ? [`${added} added now`] : []),
    ...(changed > 0 ? [`${counted(changed, 'role')} changed`] : []),
  ];
  return said.length > 0 ? ` (${said.join(', ')})` : '';
}
