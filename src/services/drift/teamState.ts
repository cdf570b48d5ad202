import type { CatalogTemplate } from '../../contract';
import {
  channelKey,
  channelsWithItems,
  planTitle,
  type TeamFact,
  type TeamState,
  tabChannels,
} from '../../domain/drift/comparers';
import type { Team } from '../../contract';
import type { DirectoryReader } from '../../domain/directory';
import { labelFullName } from '../../domain/labels';
import { foldersToMake } from '../../contract';
import type { OperationCheckpoint, TeamsPlatform } from '../../platform/port';
import type { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';

/**
 * Reads what the comparers need of a team through the platform port, and nothing else: the
 * channels when a comparer reads them, the tabs only of the channels the template's tabs name,
 * the members when the template has permanent people, the label Steward applied.
 */
export async function readTeamState(
  deps: { teams: TeamsPlatform; labels: SensitivityLabelRepository; directory?: DirectoryReader },
  team: Team,
  template: CatalogTemplate,
  reads: ReadonlySet<TeamFact>,
): Promise<TeamState> {
  const { teams } = deps;
  const [channels, members, label, directoryLabels, plan, tags, apps] = await Promise.all([
    reads.has('channels') || reads.has('tabs') ? teams.listChannels(team.id) : Promise.resolve([]),
    reads.has('members') ? teams.listMembers(team.id) : Promise.resolve([]),
    reads.has('label') ? deps.labels.find(team.id) : Promise.resolve(undefined),
    reads.has('label') && deps.directory ? deps.directory.labels() : Promise.resolve([]),
    reads.has('plan') ? readPlan(teams, team, template) : Promise.resolve(undefined),
    reads.has('tags') ? teams.workspace.listTags(team.id) : Promise.resolve(undefined),
    reads.has('apps') ? teams.workspace.listInstalledApps(team.id) : Promise.resolve(undefined),
  ]);
  const tabs = new Map<string, Array<{ displayName: string; teamsAppId: string }>>();
  if (reads.has('tabs')) {
    const byKey = new Map(channels.map((c) => [channelKey(c.displayName), c.id]));
    for (const key of tabChannels(template)) {
      let channelId = byKey.get(key);
      if (!channelId && key === 'general') channelId = (await teams.primaryChannel(team.id)).id;
      if (!channelId) continue;
      const pinned = await teams.listTabs(team.id, channelId);
      tabs.set(
        key,
        pinned.map((t) => ({ displayName: t.displayName, teamsAppId: t.teamsApp.id })),
      );
    }
  }
  const items = reads.has('files') ? await readItems(teams, team.id, template, channels) : undefined;
  return {
    visibility: team.visibility,
    ...(items ? { items } : {}),
    channels: channels.map((c) => ({
      id: c.id,
      displayName: c.displayName,
      membershipType: c.membershipType,
    })),
    tabs,
    members: members.map((m) => ({
      userId: m.userId,
      displayName: m.displayName,
      owner: m.roles.includes('owner'),
    })),
    labelId: label?.status === 'applied' ? label.label_id : null,
    labelNames: new Map(directoryLabels.map((l) => [l.id, labelFullName(l, directoryLabels)])),
    displayName: team.displayName,
    ...(plan !== undefined ? { plan } : {}),
    ...(tags ? { tags: tags.map((t) => t.displayName) } : {}),
    ...(apps ? { apps } : {}),
    settings: {
      memberSettings: team.memberSettings,
      guestSettings: team.guestSettings,
      messagingSettings: team.messagingSettings,
      funSettings: team.funSettings,
    },
  };
}

/** The template's plan in the team, found by title as the provisioning step finds it, and its buckets. */
async function readPlan(
  teams: TeamsPlatform,
  team: Team,
  template: CatalogTemplate,
): Promise<{ title: string; buckets: string[] } | null> {
  const title = planTitle(template, team.displayName);
  const plan = (await teams.workspace.listPlans(team.id)).find((p) => p.title === title);
  if (!plan) return null;
  return { title, buckets: (await teams.workspace.listBuckets(plan.id)).map((b) => b.name) };
}

/** Thrown by the read-only checkpoint: a channel's files folder is not there yet. */
class NotYet extends Error {}

/** A checkpoint that never waits: reading drift is not the place to wait for SharePoint. */
const noWait: OperationCheckpoint = {
  state: undefined,
  wait: () => Promise.reject(new NotYet()),
};

/** Which of the template's folders and files each of its channels the team has holds. */
async function readItems(
  teams: TeamsPlatform,
  teamId: string,
  template: CatalogTemplate,
  channels: ReadonlyArray<{ id: string; displayName: string }>,
): Promise<Map<string, Set<string>>> {
  const byKey = new Map(channels.map((c) => [channelKey(c.displayName), c.id]));
  const out = new Map<string, Set<string>>();
  for (const channel of channelsWithItems(template)) {
    const key = channelKey(channel.displayName);
    const channelId = byKey.get(key);
    if (!channelId) continue;
    let folder;
    try {
      folder = await teams.files.filesFolder(teamId, channelId, noWait);
    } catch (error) {
      if (error instanceof NotYet) continue;
      throw error;
    }
    const paths = [...foldersToMake(channel), ...(channel.files ?? []).map((f) => f.path)];
    out.set(key, await teams.files.existingItems(folder, paths));
  }
  return out;
}
