import { randomBytes } from 'node:crypto';
import type { Team, TeamChannel, TeamChannelTab, TeamMember, TeamSettings } from '../../contract';
import type { Kysely } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { Database, PlatformChannelRow, PlatformTabRow, PlatformTeamRow } from '../../store/schema';

/** Every settings object with every field set, as a team always has them. */
export type FullTeamSettings = { [K in keyof TeamSettings]-?: Required<NonNullable<TeamSettings[K]>> };

/** What Graph gives a new team when the request leaves a setting out. */
export const DEFAULT_TEAM_SETTINGS: FullTeamSettings = {
  memberSettings: {
    allowCreateUpdateChannels: true,
    allowCreatePrivateChannels: true,
    allowDeleteChannels: true,
    allowAddRemoveApps: true,
    allowCreateUpdateRemoveTabs: true,
    allowCreateUpdateRemoveConnectors: true,
  },
  guestSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
  messagingSettings: {
    allowUserEditMessages: true,
    allowUserDeleteMessages: true,
    allowOwnerDeleteMessages: true,
    allowTeamMentions: true,
    allowChannelMentions: true,
  },
  funSettings: {
    allowGiphy: true,
    giphyContentRating: 'moderate',
    allowStickersAndMemes: true,
    allowCustomMemes: true,
  },
  discoverySettings: { showInTeamsSearchAndSuggestions: true },
};

const SETTINGS_KEYS = Object.keys(DEFAULT_TEAM_SETTINGS) as Array<keyof FullTeamSettings>;

/** `base` with `change` laid over it, key by key within each settings object; undefined keys keep the base. */
export function mergeSettings(base: FullTeamSettings, change: TeamSettings | undefined): FullTeamSettings {
  const merged = { ...base } as Record<keyof FullTeamSettings, Record<string, unknown>>;
  for (const key of SETTINGS_KEYS) {
    const defined = Object.entries(change?.[key] ?? {}).filter(([, value]) => value !== undefined);
    merged[key] = { ...base[key], ...Object.fromEntries(defined) };
  }
  return merged as FullTeamSettings;
}

/** The stored settings JSON, filled with the defaults where a row predates a setting. */
export function settingsOf(row: Pick<PlatformTeamRow, 'settings'>): FullTeamSettings {
  return mergeSettings(DEFAULT_TEAM_SETTINGS, JSON.parse(row.settings) as TeamSettings);
}

/** A stored team as Graph shows it. */
export function teamFromRow(row: PlatformTeamRow, publicUrl: string): Team {
  return {
    id: row.id,
    displayName: row.display_name,
    description: row.description,
    internalId: row.internal_id,
    classification: row.classification,
    specialization: row.specialization,
    visibility: row.visibility === 'public' ? 'public' : 'private',
    webUrl: teamWebUrl(publicUrl, row.id),
    isArchived: Number(row.is_archived) === 1,
    isMembershipLimitedToOwners: false,
    createdDateTime: row.created_at,
    ...settingsOf(row),
  };
}

/** Where the embedded viewer shows a team. */
export function teamWebUrl(publicUrl: string, teamId: string): string {
  return `${publicUrl}/platform/teams/${encodeURIComponent(teamId)}`;
}

/** A stored channel as Graph shows it. */
export function channelFromRow(row: PlatformChannelRow): TeamChannel {
  const type = row.membership_type;
  return {
    id: row.id,
    createdDateTime: row.created_at,
    displayName: row.display_name,
    description: row.description,
    membershipType: type === 'private' || type === 'shared' ? type : 'standard',
  };
}

/** The names Teams shows for the built-in tab apps; any other app id is shown as itself. */
const TEAMS_APP_NAMES: Readonly<Record<string, string>> = {
  'com.microsoft.teamspace.tab.web': 'Website',
  'com.microsoft.teamspace.tab.wiki': 'Wiki',
  'com.microsoft.teamspace.tab.planner': 'Tasks by Planner and To Do',
  'com.microsoft.teamspace.tab.files.sharepoint': 'Document Library',
  'com.microsoft.teamspace.tab.file.staticviewer.pdf': 'PDF',
  'com.microsoft.teamspace.tab.file.staticviewer.word': 'Word',
  'com.microsoft.teamspace.tab.file.staticviewer.excel': 'Excel',
  'com.microsoft.teamspace.tab.file.staticviewer.powerpoint': 'PowerPoint',
};

/** A stored tab as Graph shows it (with `$expand=teamsApp`). */
export function tabFromRow(row: PlatformTabRow, publicUrl: string): TeamChannelTab {
  const builtIn = TEAMS_APP_NAMES[row.teams_app_id];
  return {
    id: row.id,
    displayName: row.display_name,
    webUrl: `${teamWebUrl(publicUrl, row.team_id)}#tab-${row.id}`,
    sortOrderIndex: String(row.sort_order),
    configuration: JSON.parse(row.configuration) as TeamChannelTab['configuration'],
    teamsApp: {
      id: row.teams_app_id,
      externalId: null,
      displayName: builtIn ?? row.teams_app_id,
      distributionMethod: builtIn ? 'store' : 'organization',
    },
  };
}

/** A membership row joined with the directory; people outside the directory show their id. */
export interface MemberJoinRow {
  id: string;
  user_id: string;
  role: string;
  display_name: string | null;
  mail: string | null;
}

/** A membership as Graph's conversationMember shows it. */
export function memberFromRow(row: MemberJoinRow): TeamMember {
  return {
    id: row.id,
    userId: row.user_id,
    displayName: row.display_name ?? row.user_id,
    email: row.mail ?? null,
    roles: row.role === 'owner' ? ['owner'] : [],
  };
}

/** A channel id shaped like Teams' thread ids. */
export function newChannelId(): string {
  return `19:${randomBytes(16).toString('hex')}@thread.tacv2`;
}

/** An opaque membership id in the style of Graph's (`MCMjMSMj…`), stable for a team and a user. */
export function memberId(teamId: string, userId: string): string {
  return Buffer.from(`0##1##${teamId}##${userId}`).toString('base64');
}

/** The first tab of a channel sorts at 10000 and each next one 100 later, as Teams numbers them. */
export const FIRST_TAB_SORT_ORDER = 10_000;
export const TAB_SORT_ORDER_STEP = 100;

/** Throws NotFound unless the simulated tenant has the team. */
export async function requireTeam(db: Kysely<Database>, teamId: string): Promise<void> {
  const team = await db.selectFrom('platform_teams').select('id').where('id', '=', teamId).executeTakeFirst();
  if (!team) throw new NotFound(`There is no team ${teamId}.`);
}
