import { type CatalogTemplate, type DriftDifference, foldersToMake } from '../../contract';
import { counted } from '../../lib/counted';
import { channelKey } from '../channelNames';
import type { DriftComparer } from './teamState';

/** Drift of a team's structure: its channels, their files and folders, and their tabs. */

/** The key a channel is known by: Teams' channel names are unique regardless of case. */
export { channelKey };

/** The channels the template's tabs need read, by key. */
export function tabChannels(template: CatalogTemplate): string[] {
  return [...new Set(template.newTeam.tabs.map((tab) => channelKey(tab.channel)))];
}

export const channels: DriftComparer = {
  kind: 'channel',
  reads: ['channels'],
  appliesTo: (template) => template.newTeam.channels.length > 0,
  compare(template, team) {
    const have = new Map(team.channels.map((c) => [channelKey(c.displayName), c]));
    const out: DriftDifference[] = [];
    for (const wanted of template.newTeam.channels) {
      const key = channelKey(wanted.displayName);
      const found = have.get(key);
      const kindSaid = wanted.membershipType === 'standard' ? 'channel' : `${wanted.membershipType} channel`;
      if (!found) {
        out.push({
          id: `channel:${key}`,
          kind: 'channel',
          name: wanted.displayName,
          detail: `The template has a ${kindSaid} "${wanted.displayName}" that the team lacks.`,
          applicable: true,
        });
      } else if (found.membershipType !== wanted.membershipType) {
        out.push({
          id: `channel:${key}`,
          kind: 'channel',
          name: wanted.displayName,
          detail: `The template's "${wanted.displayName}" is a ${kindSaid}; the team's is ${found.membershipType}.`,
          applicable: false,
          reason: "Teams cannot change a channel's membership type once it is made.",
        });
      }
    }
    return out;
  },
};

/** The template's channels that have folders or starter files. */
export function channelsWithItems(template: CatalogTemplate): CatalogTemplate['newTeam']['channels'] {
  return template.newTeam.channels.filter((c) => (c.folders?.length ?? 0) + (c.files?.length ?? 0) > 0);
}

export const channelFiles: DriftComparer = {
  kind: 'channelFile',
  reads: ['channels', 'files'],
  appliesTo: (template) => channelsWithItems(template).length > 0,
  compare(template, team) {
    const out: DriftDifference[] = [];
    for (const channel of channelsWithItems(template)) {
      const key = channelKey(channel.displayName);
      const have = team.items?.get(key) ?? new Set<string>();
      const folders = foldersToMake(channel).filter((f) => !have.has(f.toLowerCase())).length;
      const files = (channel.files ?? []).filter((f) => !have.has(f.path.toLowerCase())).length;
      if (folders + files === 0) continue;
      const what = [
        ...(folders > 0 ? [counted(folders, 'folder')] : []),
        ...(files > 0 ? [counted(files, 'starter file')] : []),
      ].join(' and ');
      out.push({
        id: `channelFile:${key}`,
        kind: 'channelFile',
        name: channel.displayName,
        detail: `The template puts ${what} in "${channel.displayName}" that the channel lacks; files already there are kept as they are.`,
        applicable: true,
      });
    }
    return out;
  },
};

export const tabs: DriftComparer = {
  kind: 'tab',
  reads: ['channels', 'tabs'],
  appliesTo: (template) => template.newTeam.tabs.length > 0,
  compare(template, team) {
    const out: DriftDifference[] = [];
    const channelNames = new Set(team.channels.map((c) => channelKey(c.displayName)));
    channelNames.add('general');
    const templateChannels = new Set(template.newTeam.channels.map((c) => channelKey(c.displayName)));
    for (const wanted of template.newTeam.tabs) {
      const key = channelKey(wanted.channel);
      const id = `tab:${key}/${wanted.displayName.trim().toLowerCase()}`;
      const name = `${wanted.displayName} (${wanted.channel})`;
      const pinned = channelNames.has(key) ? (team.tabs.get(key) ?? []) : [];
      const same = pinned.find(
        (t) => t.displayName.trim().toLowerCase() === wanted.displayName.trim().toLowerCase(),
      );
      if (same && same.teamsAppId === wanted.teamsAppId) continue;
      if (same) {
        out.push({
          id,
          kind: 'tab',
          name,
          detail: `The channel "${wanted.channel}" has a tab "${wanted.displayName}" of another app than the template's.`,
          applicable: false,
          reason: 'Steward adds what is missing and never replaces what the owners have.',
        });
        continue;
      }
      const channelComing = !channelNames.has(key) && templateChannels.has(key);
      if (!channelNames.has(key) && !channelComing) {
        out.push({
          id,
          kind: 'tab',
          name,
          detail: `The template pins "${wanted.displayName}" in a channel "${wanted.channel}" that neither the team nor the template has.`,
          applicable: false,
          reason: 'The tab has no channel to go in.',
        });
        continue;
      }
      out.push({
        id,
        kind: 'tab',
        name,
        detail: channelComing
          ? `The template pins "${wanted.displayName}" in its channel "${wanted.channel}", which the team lacks too.`
          : `The template pins "${wanted.displayName}" in "${wanted.channel}"; the team's channel does not have it.`,
        applicable: true,
      });
    }
    return out;
  },
};
