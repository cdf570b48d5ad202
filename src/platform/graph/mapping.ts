import type * as MSGraph from '@microsoft/microsoft-graph-types';
import type { TeamUpdate } from './payloads';
import type { DirectoryLabel } from '../../domain/directory';
import type { Team, TeamChannel, TeamChannelTab, TeamMember, TeamSettings, User } from '../../contract';

/**
 * Graph's JSON as far as Steward reads it, and its translation into our wire models. The wire
 * settings objects are strict, so only the fields we know are copied: Graph adds properties over
 * time and they must not leak into our API.
 */

type Json = Record<string, unknown>;

/** Graph entities as Microsoft types them, with the id Graph always returns made required. */
type WithId<T> = T & { id: string };

export type GraphTeam = WithId<MSGraph.Team>;
export type GraphMember = WithId<MSGraph.AadUserConversationMember>;
export type GraphChannel = WithId<MSGraph.Channel>;
export type GraphTab = WithId<MSGraph.TeamsTab>;
export type GraphUser = WithId<MSGraph.User>;
export type GraphGroup = WithId<MSGraph.Group>;

/**
 * A v1.0 sensitivity label (`/security/dataSecurityAndGovernance/sensitivityLabels`). The response
 * documented in `api/sensitivitylabel-get.md` also carries `color`, `isEnabled` and `applicableTo`,
 * which the typings do not have yet.
 */
export type GraphLabel = WithId<MSGraph.SensitivityLabel> & {
  color?: string | null;
  isEnabled?: boolean | null;
  applicableTo?: string | null;
  sublabels?: GraphLabel[] | null;
};

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
export function pickSettings(source: object): TeamSettings {
  const settings: Record<string, Json> = {};
  for (const name of SETTINGS_NAMES) {
    const value = (source as Json)[name];
    if (value && typeof value === 'object') settings[name] = pickSettingsObject(name, value as Json);
  }
  return settings as TeamSettings;
}

/**
 * The settings objects of `source` as Graph v1.0 takes them in a request: `discoverySettings` is
 * beta-only (the v1.0 typings have no such property), so it is left out rather than refused.
 */
export function graphSettings(source: object): TeamUpdate {
  const { discoverySettings: _beta, ...v1 } = pickSettings(source);
  return v1 as TeamUpdate;
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
    // A beta-only property: v1.0 never says a team's membership is limited to owners.
    isMembershipLimitedToOwners: false,
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
    sortOrderIndex: null, // beta-only in Graph
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
  return {
    id: user.id,
    displayName: user.displayName ?? '',
    givenName: user.givenName ?? null,
    surname: user.surname ?? null,
    mail: user.mail ?? null,
    userPrincipalName: user.userPrincipalName ?? '',
    jobTitle: user.jobTitle ?? null,
    department: user.department ?? null,
    companyName: user.companyName ?? null,
    country: user.country ?? null,
    city: user.city ?? null,
    usageLocation: user.usageLocation ?? null,
    preferredLanguage: user.preferredLanguage ?? null,
  };
}

/**
 * Purview sensitivity labels as our DirectoryLabels: v1.0 lists the top-level labels with their
 * `sublabels` nested, which become labels with a parent. Graph already answers with the labels the
 * tenant publishes, so no scope is kept here (`null` = everyone).
 */
export function toLabels(labels: readonly GraphLabel[], parent: GraphLabel | null = null): DirectoryLabel[] {
  return labels.flatMap((label) => [toLabel(label, parent), ...toLabels(label.sublabels ?? [], label)]);
}

function toLabel(label: GraphLabel, parent: GraphLabel | null): DirectoryLabel {
  return {
    id: label.id,
    name: label.name ?? label.displayName ?? '',
    description: label.description ?? '',
    color: label.color ?? '',
    sensitivity: typeof label.priority === 'number' ? Math.trunc(label.priority) : 0,
    tooltip: label.toolTip ?? '',
    isActive: label.isEnabled !== false,
    parent: parent ? parent.id : null,
    scopeGroupIds: null,
  };
}
