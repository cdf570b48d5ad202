import { counted } from '../../lib/counted';
import { channelKey } from '../../domain/channelNames';
import { Conflict, JobCannotRun } from '../../domain/errors';
import {
  foldersToMake,
  type StarterFile,
  type TeamChannel,
  type TeamChannelPayload,
  type TemplateTeamSettings,
} from '../../contract';
import { type OperationCheckpoint, PlatformError, type TeamsPlatform } from '../../platform/port';
import type { ProvisioningPlan } from '../jobData/provisioningData';

/*
 * Laying out a team's workspace from its template (docs/guides/templates.md): the team's settings,
 * shared channels' creation, and each channel's folders and starter files. A provisioning job runs
 * them on a new team, a drift apply on an existing one (what they share lives here, in neither).
 * Each is safe to run again: settings are written whole, a channel is found by name (regardless of
 * case, as Teams compares them), and a folder or file already there is read and kept, so a job
 * resumed after a crash or a park duplicates and overwrites nothing.
 */

/**
 * The job's step checkpoint seen for one thing among several a step waits on in turn (a shared
 * channel, a channel's files folder): a state saved while waiting for another is not taken up, and
 * the state saved now names `key`.
 */
export function scopedOperation(operation: OperationCheckpoint, key: string): OperationCheckpoint {
  return {
    get state() {
      const state = operation.state;
      return state?.key === key ? state : undefined;
    },
    wait: (wait) => operation.wait({ ...wait, state: { ...wait.state, key } }),
  };
}

/**
 * Creates a channel. When the platform answers that one of that name exists, an earlier attempt
 * made it and did not live to record it: that channel is the one. A shared channel Graph is still
 * making is not listed yet: the attempt fails transiently, and the job looks again later rather
 * than failing or making a second one.
 */
export async function createOrFindChannel(
  teams: TeamsPlatform,
  teamId: string,
  channel: TeamChannelPayload,
  ownerId: string,
  operation: OperationCheckpoint,
): Promise<TeamChannel> {
  try {
    return await teams.createChannel(teamId, channel, ownerId, operation);
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    const name = channelKey(channel.displayName);
    const found = (await teams.listChannels(teamId)).find((c) => channelKey(c.displayName) === name);
    if (found) return found;
    throw new PlatformError(
      `A channel named "${channel.displayName}" is being made but is not listed yet; the job looks again later.`,
      409,
      true,
    );
  }
}

/** The settings a new team is created with: the template's, when it sets any. */
export function creationSettings(plan: ProvisioningPlan): TemplateTeamSettings {
  return plan.settings ?? {};
}

/**
 * The template's settings on a copied team (a clone takes its source's, or none): written with one
 * update. A new team got them with its creation request. Returns the log's line, if any.
 */
export async function applyTemplateSettings(
  teams: TeamsPlatform,
  teamId: string,
  plan: ProvisioningPlan,
): Promise<string[]> {
  const settings = plan.settings;
  const names = Object.keys(settings ?? {});
  if (!settings || names.length === 0) return [];
  const said = names.map((name) => name.replace(/Settings$/, '')).join(', ');
  if (!plan.clone) {
    // Graph's v1.0 team has no discoverySettings: Graph's platform writes them after the team
    // exists (beta's team update), the embedded one again, unchanged.
    if (settings.discoverySettings)
      await teams.updateTeam(teamId, { discoverySettings: settings.discoverySettings });
    return [`The team was created with the template's ${said} settings.`];
  }
  await teams.updateTeam(teamId, settings);
  return [`Applied the template's ${said} settings.`];
}

/** The channels of the plan that have folders or files to make. */
export function channelsWithFiles(plan: ProvisioningPlan): ProvisioningPlan['channels'] {
  return plan.channels.filter((c) => (c.folders?.length ?? 0) + (c.files?.length ?? 0) > 0);
}

/**
 * Each channel's folders (parents first) and starter files, in the channel's files folder, waited
 * for while SharePoint makes it (the job parks through `operation`). Returns the log's lines.
 *
 * A private or shared channel's folder may park the step for minutes: the channels finished
 * before, and their log lines, go with the wait (`OperationState.finished`, `said`), so the step
 * comes back to the channel it waited for and touches none of the others again.
 */
export async function layOutChannelFiles(
  teams: TeamsPlatform,
  teamId: string,
  plan: ProvisioningPlan,
  channelIds: Readonly<Record<string, string>>,
  operation: OperationCheckpoint,
): Promise<string[]> {
  const saved = operation.state;
  const finished = new Set(saved?.finished ?? []);
  const log = [...(saved?.said ?? [])];
  const withProgress: OperationCheckpoint = {
    get state() {
      return operation.state;
    },
    wait: (wait) =>
      operation.wait({ ...wait, state: { ...wait.state, finished: [...finished], said: [...log] } }),
  };
  for (const channel of channelsWithFiles(plan)) {
    const name = channelKey(channel.displayName);
    if (finished.has(name)) continue;
    const channelId = channelIds[name];
    if (!channelId)
      throw new JobCannotRun(`The team has no channel "${channel.displayName}" to put its files in.`);
    log.push(
      await layOutFiles(teams, teamId, channel, channelId, scopedOperation(withProgress, `files:${name}`)),
    );
    finished.add(name);
  }
  return log;
}

/**
 * One channel's folders (parents first) and starter files, in its files folder, waited for through
 * `operation`. What is there is read first (each folder on the way once) and kept, never written
 * again: only what is missing is made. Returns the log's line, which counts what was made.
 */
export async function layOutFiles(
  teams: TeamsPlatform,
  teamId: string,
  channel: { displayName: string; folders?: readonly string[]; files?: readonly StarterFile[] },
  channelId: string,
  operation: OperationCheckpoint,
): Promise<string> {
  const folder = await teams.files.filesFolder(teamId, channelId, operation);
  const paths = foldersToMake(channel);
  const files = channel.files ?? [];
  const there = await teams.files.existingItems(folder, [...paths, ...files.map((f) => f.path)]);
  let folders = 0;
  let made = 0;
  let kept = 0;
  for (const path of paths) {
    if (!there.has(path.toLowerCase()) && (await teams.files.createFolder(folder, path))) folders++;
    else kept++;
  }
  for (const file of files) {
    if (
      !there.has(file.path.toLowerCase()) &&
      (await teams.files.createFile(folder, file.path, file.content))
    )
      made++;
    else kept++;
  }
  const keptSaid = kept > 0 ? `; kept ${counted(kept, 'item')} already there` : '';
  return `Made ${counted(folders, 'folder')} and ${counted(made, 'starter file')} in "${channel.displayName}"${keptSaid}.`;
}
