import {
  type CatalogTemplate,
  type DriftDifference,
  type DriftKind,
  foldersToMake,
  tagPeople,
  type TemplateTeamSettings,
} from '../../contract';
import { counted } from '../../lib/counted';
import { channelKey } from '../channelNames';

/**
 * Drift: what a template asks for that a team lacks or contradicts. One comparer per kind of
 * template part, in `DRIFT_COMPARERS`; a new kind of part (a folder, a plan bucket, a setting)
 * plugs in with its kind in `contract/drift.ts`, a comparer here and an applier in
 * `services/drift/appliers.ts`. Comparers look only at what the template names: a channel the
 * owners added, a tab they pinned, a person they invited are theirs, and never a difference.
 */

/** What a comparer may read of the team; the service reads only what the comparers that apply need. */
export type TeamFact = 'channels' | 'tabs' | 'members' | 'label' | 'plan' | 'tags' | 'apps' | 'files';

/** A team as the platform shows it, as far as drift needs it. */
export interface TeamState {
  visibility: 'public' | 'private';
  /** Every channel, General included. */
  channels: ReadonlyArray<{ id: string; displayName: string; membershipType: string }>;
  /** The tabs of the channels the template's tabs name, by the channel's lower-cased name. */
  tabs: ReadonlyMap<string, ReadonlyArray<{ displayName: string; teamsAppId: string }>>;
  members: ReadonlyArray<{ userId: string; displayName: string; owner: boolean }>;
  /** The sensitivity label Steward knows the team has (null: none applied by Steward). */
  labelId: string | null;
  /** Labels' names as people know them ("Confidential / All Employees"), by id, where read. */
  labelNames?: ReadonlyMap<string, string>;
  /**
   * Of the template's channels with folders or files, by key, the paths (lower-cased) of those the
   * channel's files folder has; a channel absent here has none yet (it is missing, or SharePoint is
   * still making its folder).
   */
  items?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The team's name (a template's plan is titled after it when it has no title of its own). */
  displayName?: string;
  /** The template's plan as the team has it (by title), with its buckets' names; null when it has none. */
  plan?: { title: string; buckets: readonly string[] } | null;
  /** The names of the team's tags. */
  tags?: readonly string[];
  /** The catalog ids of the apps installed in the team. */
  apps?: readonly string[];
  /** The team's settings, as the platform shows them. */
  settings?: TemplateTeamSettings;
}

export interface DriftComparer {
  readonly kind: DriftKind;
  /** What it reads of the team. */
  readonly reads: readonly TeamFact[];
  /** True when the template has anything of this kind to compare (else nothing is read for it). */
  appliesTo(template: CatalogTemplate): boolean;
  compare(template: CatalogTemplate, team: TeamState): DriftDifference[];
}

/** The key a channel is known by: Teams' channel names are unique regardless of case. */
export { channelKey };

/** The channels the template's tabs need read, by key. */
export function tabChannels(template: CatalogTemplate): string[] {
  return [...new Set(template.newTeam.tabs.map((tab) => channelKey(tab.channel)))];
}

const channels: DriftComparer = {
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

const channelFiles: DriftComparer = {
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

const tabs: DriftComparer = {
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

function people(role: 'owners' | 'members'): DriftComparer {
  const kind = role === 'owners' ? 'permanentOwner' : 'permanentMember';
  return {
    kind,
    reads: ['members'],
    appliesTo: (template) => template.templateConfiguration.permanentMembership[role].length > 0,
    compare(template, team) {
      const byId = new Map(team.members.map((m) => [m.userId, m]));
      const out: DriftDifference[] = [];
      for (const person of template.templateConfiguration.permanentMembership[role]) {
        const member = byId.get(person.id);
        const name = person.name ?? member?.displayName ?? person.id;
        if (role === 'owners' && member && !member.owner) {
          out.push({
            id: `${kind}:${person.id}`,
            kind,
            name,
            detail: `${name} is a permanent owner of the template and only a member of the team.`,
            applicable: true,
          });
        } else if (!member) {
          out.push({
            id: `${kind}:${person.id}`,
            kind,
            name,
            detail: `${name} is a permanent ${role === 'owners' ? 'owner' : 'member'} of the template and not in the team.`,
            applicable: true,
          });
        }
      }
      return out;
    },
  };
}

const label: DriftComparer = {
  kind: 'sensitivityLabel',
  reads: ['label'],
  appliesTo: (template) => template.templateConfiguration.sensitivityLabelId !== null,
  compare(template, team) {
    const wanted = template.templateConfiguration.sensitivityLabelId;
    if (!wanted || team.labelId === wanted) return [];
    return [
      {
        id: `sensitivityLabel:${wanted}`,
        kind: 'sensitivityLabel',
        // Its name where the directory gave it; never its id, which nobody reads.
        name: team.labelNames?.get(wanted) ?? "the template's sensitivity label",
        detail: team.labelId
          ? 'The team has another sensitivity label than the template asks for.'
          : 'The template asks for a sensitivity label the team does not have.',
        applicable: true,
      },
    ];
  },
};

const visibility: DriftComparer = {
  kind: 'visibility',
  reads: [],
  appliesTo: () => true,
  compare(template, team) {
    const wanted = template.newTeam.teamPrivacy;
    if (template.clonedTeam || team.visibility === wanted) return [];
    return [
      {
        id: 'visibility',
        kind: 'visibility',
        name: wanted,
        detail: `The template makes ${wanted} teams; this one is ${team.visibility}.`,
        applicable: false,
        reason: "A team's privacy decides who may find and join it: its owners change it, not Steward.",
      },
    ];
  },
};

/** The title of the template's plan in a team: its own, or the team's name. */
export function planTitle(template: CatalogTemplate, teamName: string): string {
  return template.newTeam.planner?.title ?? teamName;
}

/** A bucket's key: Planner's names, compared regardless of case (as the provisioning step does). */
export const bucketKey = (name: string): string => name.toLowerCase();

const planBuckets: DriftComparer = {
  kind: 'planBucket',
  reads: ['plan'],
  appliesTo: (template) => template.newTeam.planner !== undefined,
  compare(template, team) {
    const planner = template.newTeam.planner;
    if (!planner || team.plan === undefined) return [];
    const title = planTitle(template, team.displayName ?? '');
    if (team.plan === null)
      return [
        {
          id: 'plan',
          kind: 'planBucket',
          name: title,
          detail: `The template has a plan "${title}" with ${planner.buckets.length === 1 ? 'one bucket' : `${planner.buckets.length} buckets`}; the team has no plan of that name.`,
          applicable: true,
        },
      ];
    const have = new Set(team.plan.buckets.map(bucketKey));
    return planner.buckets
      .filter((b) => !have.has(bucketKey(b.name)))
      .map((b) => ({
        id: `planBucket:${bucketKey(b.name)}`,
        kind: 'planBucket' as const,
        name: b.name,
        detail:
          `The template's plan has a bucket "${b.name}" that the team's plan "${title}" lacks` +
          (b.tasks.length > 0
            ? `; its ${b.tasks.length === 1 ? 'task comes' : `${b.tasks.length} tasks come`} with it.`
            : '.'),
        applicable: true,
      }));
  },
};

const tags: DriftComparer = {
  kind: 'tag',
  reads: ['tags', 'members'],
  appliesTo: (template) => (template.newTeam.tags?.length ?? 0) > 0,
  compare(template, team) {
    const have = new Set((team.tags ?? []).map((t) => t.toLowerCase()));
    const people = team.members.map((m) => ({ role: m.owner ? ('owner' as const) : ('member' as const) }));
    const whom = { owners: 'owners', members: 'members who are not owners', everyone: 'members' };
    return (template.newTeam.tags ?? [])
      .filter((t) => !have.has(t.displayName.toLowerCase()))
      .map((t) => {
        const nobody = tagPeople(people, t.members).length === 0;
        return {
          id: `tag:${t.displayName.toLowerCase()}`,
          kind: 'tag' as const,
          name: t.displayName,
          detail: `The template has a tag "${t.displayName}" for the team's ${whom[t.members]}; the team lacks it.`,
          applicable: !nobody,
          ...(nobody
            ? { reason: `A tag needs at least one person, and the team has no ${whom[t.members]}.` }
            : {}),
        };
      });
  },
};

const apps: DriftComparer = {
  kind: 'app',
  reads: ['apps'],
  appliesTo: (template) => (template.newTeam.apps?.length ?? 0) > 0,
  compare(template, team) {
    const have = new Set(team.apps ?? []);
    return (template.newTeam.apps ?? [])
      .filter((a) => !have.has(a.teamsAppId))
      .map((a) => ({
        id: `app:${a.teamsAppId}`,
        kind: 'app' as const,
        name: a.displayName ?? a.teamsAppId,
        detail: `The template installs the app "${a.displayName ?? a.teamsAppId}"; the team does not have it.`,
        applicable: true,
      }));
  },
};

/** The groups of settings a template may set, as Graph's team resource names them. */
const SETTING_GROUPS = ['memberSettings', 'guestSettings', 'messagingSettings', 'funSettings'] as const;

const settings: DriftComparer = {
  kind: 'teamSetting',
  reads: [],
  appliesTo: (template) =>
    SETTING_GROUPS.some((g) => Object.keys(template.newTeam.settings?.[g] ?? {}).length > 0),
  compare(template, team) {
    const out: DriftDifference[] = [];
    if (!team.settings) return out;
    for (const group of SETTING_GROUPS) {
      const wanted: Record<string, unknown> = template.newTeam.settings?.[group] ?? {};
      const have: Record<string, unknown> = team.settings[group] ?? {};
      for (const [name, value] of Object.entries(wanted)) {
        if (value === undefined || have[name] === value) continue;
        out.push({
          id: `teamSetting:${group}.${name}`,
          kind: 'teamSetting',
          name: settingName(group, name),
          detail: `The template sets ${group}.${name} to ${String(value)}; the team has ${have[name] === undefined ? 'no value' : String(have[name])}.`,
          applicable: true,
        });
      }
    }
    return out;
  },
};

/** A setting as people read it: "Allow delete channels (member settings)". */
function settingName(group: string, name: string): string {
  const words = (camel: string) =>
    camel
      .replace(/([A-Z])/g, ' $1')
      .toLowerCase()
      .trim();
  const said = words(name);
  return `${said.charAt(0).toUpperCase()}${said.slice(1)} (${words(group)})`;
}

/** A team setting's change: only that setting of its group, as a PATCH of the team carries it. */
export function settingChange(
  template: CatalogTemplate,
  id: string,
): Partial<Record<(typeof SETTING_GROUPS)[number], Record<string, unknown>>> | undefined {
  const [group, name] = id.slice('teamSetting:'.length).split('.') as [string, string | undefined];
  const g = SETTING_GROUPS.find((x) => x === group);
  if (!g || !name) return undefined;
  const value = (template.newTeam.settings?.[g] as Record<string, unknown> | undefined)?.[name];
  return value === undefined ? undefined : { [g]: { [name]: value } };
}

/** Every kind of template part drift compares, in the order differences are listed and applied. */
export const DRIFT_COMPARERS: readonly DriftComparer[] = [
  channels,
  channelFiles,
  tabs,
  people('owners'),
  people('members'),
  label,
  visibility,
  planBuckets,
  tags,
  apps,
  settings,
];

/** The comparers with something to compare in `template`, and the facts they need read. */
export function comparersFor(
  template: CatalogTemplate,
  comparers: readonly DriftComparer[] = DRIFT_COMPARERS,
): { comparers: DriftComparer[]; reads: Set<TeamFact> } {
  const chosen = comparers.filter((c) => c.appliesTo(template));
  return { comparers: chosen, reads: new Set(chosen.flatMap((c) => c.reads)) };
}

/** The team's differences from the template, kind after kind. */
export function compareTeam(
  template: CatalogTemplate,
  team: TeamState,
  comparers: readonly DriftComparer[] = DRIFT_COMPARERS,
): DriftDifference[] {
  return comparers.flatMap((c) => c.compare(template, team));
}

/** How many differences of each kind. */
export function countByKind(differences: readonly DriftDifference[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of differences) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
  return counts;
}
