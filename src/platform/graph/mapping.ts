import type { DirectoryLabel } from '../../domain/directory';
import type { Team, TeamChannel, TeamChannelTab, TeamMember, TeamSettings, User } from '../../domain/wire';

/**
 * Graph's JSON as far as Steward reads it, and its translation into our wire models. The wire
 * settings objects are strict, so only the fields we know are copied: Graph adds properties over
 * time and they must not leak into our API.
 */

type Json = Record<string, unknown>;

export interface GraphTeam extends Json {
  id: string;
  displayName?: string | null;
  description?: string | null;
  internalId?: string | null;
  classification?: string | null;
  specialization?: string | null;
  visibility?: string | null;
  webUrl?: string | null;
  isArchived?: boolean | null;
  isMembershipLimitedToOwners?: boolean | null;
  createdDateTime?: string | null;
}

export interface GraphMember extends Json {
  id: string;
  userId?: string | null;
  displayName?: string | null;
  email?: string | null;
  roles?: string[] | null;
}

export interface GraphChannel extends Json {
  id: string;
  createdDateTime?: string | null;
  displayName?: string | null;
  description?: string | null;
  membershipType?: string | null;
}

export interface GraphTab extends Json {
  id: string;
  displayName?: string | null;
  webUrl?: string | null;
  sortOrderIndex?: string | null;
  configuration?: Json | null;
  teamsApp?: Json | null;
}

export interface GraphUser extends Json {
  id: string;
  displayName?: string | null;
  userPrincipalName?: string | null;
}

export interface GraphLabel extends Json {
  id: string;
  parent?: { id?: string; name?: string } | null;
}

/** The directory fields Steward reads, for `$select`. */
export const USER_FIELDS = [
  'id',
  'displayName',
  'givenName',
  'surname',
  'mail',
  'userPrincipalName',
  'jobTitle',
  'department',
  'companyName',
  'country',
  'city',
  'usageLocation',
  'preferredLanguage',
].join(',');

const SETTINGS_FIELDS = {
  memberSettings: [
    'allowCreateUpdateChannels',
    'allowCreatePrivateChannels',
    'allowDeleteChannels',
    'allowAddRemoveApps',
    'allowCreateUpdateRemoveTabs',
    'allowCreateUpdateRemoveConnectors',
  ],
  guestSettings: ['allowCreateUpdateChannels', 'allowDeleteChannels'],
  messagingSettings: [
    'allowUserEditMessages',
    'allowUserDeleteMessages',
    'allowOwnerDeleteMessages',
    'allowTeamMentions',
    'allowChannelMentions',
  ],
  funSettings: ['allowGiphy', 'giphyContentRating', 'allowStickersAndMemes', 'allowCustomMemes'],
  discoverySettings: ['showInTeamsSearchAndSuggestions'],
} as const;

type SettingsName = keyof typeof SETTINGS_FIELDS;
const SETTINGS_NAMES = Object.keys(SETTINGS_FIELDS) as SettingsName[];

/** The settings objects present in `source`, with only the fields the wire model knows. */
export function pickSettings(source: Json | TeamSettings): TeamSettings {
  const settings: Record<string, Json> = {};
  for (const name of SETTINGS_NAMES) {
    const value = (source as Json)[name];
    if (value && typeof value === 'object') settings[name] = pickSettingsObject(name, value as Json);
  }
  return settings as TeamSettings;
}

function pickSettingsObject(name: SettingsName, value: Json): Json {
  const picked: Json = {};
  for (const field of SETTINGS_FIELDS[name]) {
    const v = value[field];
    if (field === 'giphyContentRating' ? v === 'moderate' || v === 'strict' : typeof v === 'boolean') {
      picked[field] = v;
    }
  }
  return picked;
}

/** A Graph team as our Team; settings Graph leaves out (discoverySettings, in v1.0) become `{}`. */
export function toTeam(team: GraphTeam): Team {
  const settings = pickSettings(team);
  return {
    id: team.id,
    displayName: team.displayName ?? '',
    description: team.description ?? null,
    internalId: team.internalId ?? null,
    classification: team.classification ?? null,
    specialization: team.specialization ?? null,
    // hiddenMembership teams are private ones whose member list is hidden too.
    visibility: team.visibility?.toLowerCase() === 'public' ? 'public' : 'private',
    webUrl: team.webUrl ?? '',
    isArchived: team.isArchived === true,
    isMembershipLimitedToOwners: team.isMembershipLimitedToOwners === true,
    createdDateTime: team.createdDateTime ?? '',
    memberSettings: settings.memberSettings ?? {},
    guestSettings: settings.guestSettings ?? {},
    messagingSettings: settings.messagingSettings ?? {},
    funSettings: settings.funSettings ?? {},
    discoverySettings: settings.discoverySettings ?? {},
  };
}

/** An aadUserConversationMember as our TeamMember (guests keep no role: ours are owner or nothing). */
export function toMember(member: GraphMember): TeamMember {
  return {
    id: member.id,
    userId: member.userId ?? '',
    displayName: member.displayName ?? '',
    email: member.email ?? null,
    roles: (member.roles ?? []).some((role) => role.toLowerCase() === 'owner') ? ['owner'] : [],
  };
}

/** A Graph channel as our TeamChannel. */
export function toChannel(channel: GraphChannel): TeamChannel {
  const type = channel.membershipType;
  return {
    id: channel.id,
    createdDateTime: channel.createdDateTime ?? '',
    displayName: channel.displayName ?? '',
    description: channel.description ?? null,
    membershipType: type === 'private' || type === 'shared' ? type : 'standard',
  };
}

/** A Graph teamsTab (with `teamsApp` expanded) as our TeamChannelTab. */
export function toTab(tab: GraphTab): TeamChannelTab {
  const configuration = tab.configuration ?? {};
  const app = tab.teamsApp ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: tab.id,
    displayName: tab.displayName ?? '',
    webUrl: tab.webUrl ?? null,
    sortOrderIndex: tab.sortOrderIndex ?? null,
    configuration: {
      entityId: text(configuration.entityId),
      contentUrl: text(configuration.contentUrl),
      websiteUrl: text(configuration.websiteUrl),
      removeUrl: text(configuration.removeUrl),
    },
    teamsApp: {
      id: text(app.id) ?? '',
      externalId: text(app.externalId),
      displayName: text(app.displayName) ?? '',
      distributionMethod: text(app.distributionMethod) ?? 'unknown',
    },
  };
}

/** A Graph user as our directory User. */
export function toUser(user: GraphUser): User {
  const text = (name: string) => {
    const value = user[name];
    return typeof value === 'string' ? value : null;
  };
  return {
    id: user.id,
    displayName: user.displayName ?? '',
    givenName: text('givenName'),
    surname: text('surname'),
    mail: text('mail'),
    userPrincipalName: user.userPrincipalName ?? '',
    jobTitle: text('jobTitle'),
    department: text('department'),
    companyName: text('companyName'),
    country: text('country'),
    city: text('city'),
    usageLocation: text('usageLocation'),
    preferredLanguage: text('preferredLanguage'),
  };
}

/**
 * A Purview sensitivity label as our DirectoryLabel. Graph already answers with the labels the
 * tenant publishes, so no scope is kept here (`null` = everyone).
 */
export function toLabel(label: GraphLabel): DirectoryLabel {
  const text = (name: string) => (typeof label[name] === 'string' ? (label[name] as string) : '');
  const parentId = label.parent?.id;
  return {
    id: label.id,
    name: text('name'),
    description: text('description'),
    color: text('color'),
    sensitivity: typeof label.sensitivity === 'number' ? Math.trunc(label.sensitivity) : 0,
    tooltip: text('tooltip'),
    isActive: label.isActive !== false,
    parent: typeof parentId === 'string' && parentId !== '' ? parentId : null,
    scopeGroupIds: null,
  };
}
