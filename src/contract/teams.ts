import { z } from 'zod';
import { channelName, tabConfigurationInput } from './channels';
import { model, multiLine } from './registry';
import { TEAM_NAME_MAX_LENGTH } from './limits';

const flag = z.boolean();

export const MemberSettings = model(
  'TeamMemberSettings',
  z.strictObject({
    allowCreateUpdateChannels: flag.optional(),
    allowCreatePrivateChannels: flag.optional(),
    allowDeleteChannels: flag.optional(),
    allowAddRemoveApps: flag.optional(),
    allowCreateUpdateRemoveTabs: flag.optional(),
    allowCreateUpdateRemoveConnectors: flag.optional(),
  }),
);
export const GuestSettings = model(
  'TeamGuestSettings',
  z.strictObject({ allowCreateUpdateChannels: flag.optional(), allowDeleteChannels: flag.optional() }),
);
export const MessagingSettings = model(
  'TeamMessagingSettings',
  z.strictObject({
    allowUserEditMessages: flag.optional(),
    allowUserDeleteMessages: flag.optional(),
    allowOwnerDeleteMessages: flag.optional(),
    allowTeamMentions: flag.optional(),
    allowChannelMentions: flag.optional(),
  }),
);
export const FunSettings = model(
  'TeamFunSettings',
  z.strictObject({
    allowGiphy: flag.optional(),
    giphyContentRating: z.enum(['moderate', 'strict']).optional(),
    allowStickersAndMemes: flag.optional(),
    allowCustomMemes: flag.optional(),
  }),
);
export const DiscoverySettings = model(
  'TeamDiscoverySettings',
  z.strictObject({ showInTeamsSearchAndSuggestions: flag.optional() }),
);

/** The settings objects of a team; every field optional so a PATCH may send any subset. */
export const TeamSettings = z.strictObject({
  memberSettings: MemberSettings.optional(),
  guestSettings: GuestSettings.optional(),
  messagingSettings: MessagingSettings.optional(),
  funSettings: FunSettings.optional(),
  discoverySettings: DiscoverySettings.optional(),
});
export type TeamSettings = z.output<typeof TeamSettings>;

export const Team = model(
  'Team',
  z.object({
    id: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    internalId: z.string().nullable(),
    classification: z.string().nullable(),
    specialization: z.string().nullable(),
    visibility: z.enum(['public', 'private']),
    webUrl: z.string(),
    isArchived: z.boolean(),
    isMembershipLimitedToOwners: z.boolean(),
    createdDateTime: z.string(),
    memberSettings: MemberSettings,
    guestSettings: GuestSettings,
    messagingSettings: MessagingSettings,
    funSettings: FunSettings,
    discoverySettings: DiscoverySettings,
  }),
  'A team of the collaboration platform.',
);
export type Team = z.output<typeof Team>;

const readOnly = (schema: z.ZodType) =>
  schema.optional().describe('Read-only: accepted (and ignored) only when equal to the current value.');

/**
 * The Team fields a PATCH may carry but never changes: a client may send the Team exactly as GET
 * returned it. Each must equal the current value; a different one is a 400 naming the field.
 */
const TeamReadOnlyFields = {
  id: readOnly(z.string()),
  internalId: readOnly(z.string().nullable()),
  specialization: readOnly(z.string().nullable()),
  webUrl: readOnly(z.string()),
  isArchived: readOnly(z.boolean()),
  isMembershipLimitedToOwners: readOnly(z.boolean()),
  createdDateTime: readOnly(z.string()),
};
export const TEAM_READ_ONLY_FIELDS = Object.keys(TeamReadOnlyFields) as Array<
  keyof typeof TeamReadOnlyFields
>;

/** PATCH /teams/{id}: any subset of the writable fields, or the whole Team as GET returns it. */
export const TeamUpdate = model(
  'TeamUpdate',
  TeamSettings.extend({
    displayName: z.string().trim().min(1).max(TEAM_NAME_MAX_LENGTH).optional(),
    description: multiLine(z.string().max(1024))
      .nullable()
      .optional()
      .describe('null (as GET shows a team without one) clears the description.'),
    visibility: z.enum(['public', 'private']).optional(),
    classification: z.string().max(128).nullable().optional(),
    ...TeamReadOnlyFields,
  }),
);
export type TeamUpdate = z.output<typeof TeamUpdate>;
/** What a PATCH changes once its read-only fields are checked and removed. */
export type TeamChange = Omit<TeamUpdate, (typeof TEAM_READ_ONLY_FIELDS)[number] | 'description'> & {
  description?: string;
};

export const TeamMembershipPayload = model(
  'TeamMembershipPayload',
  z.strictObject({
    user: z.strictObject({ id: z.string().trim().min(1).max(320) }),
    role: z.enum(['member', 'owner']).default('member'),
  }),
);
export type TeamMembershipPayload = z.output<typeof TeamMembershipPayload>;

export const TeamMember = model(
  'TeamMember',
  z.object({
    id: z.string(),
    userId: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    roles: z.array(z.enum(['owner'])),
  }),
  'A member of a team (a conversationMember); owners have the role "owner".',
);
export type TeamMember = z.output<typeof TeamMember>;

export const TeamChannel = model(
  'TeamChannel',
  z.object({
    id: z.string(),
    createdDateTime: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    membershipType: z.enum(['standard', 'private', 'shared']),
  }),
);
export type TeamChannel = z.output<typeof TeamChannel>;

export const TeamChannelPayload = model(
  'TeamChannelPayload',
  z.strictObject({
    displayName: channelName,
    description: multiLine(z.string().max(1024)).optional(),
    membershipType: z.enum(['standard', 'private', 'shared']).default('standard'),
  }),
);
export type TeamChannelPayload = z.output<typeof TeamChannelPayload>;

const TabConfiguration = z.strictObject({
  entityId: z.string().max(256).nullable().optional(),
  contentUrl: z.string().max(2048).nullable().optional(),
  websiteUrl: z.string().max(2048).nullable().optional(),
  removeUrl: z.string().max(2048).nullable().optional(),
});

export const TeamChannelTab = model(
  'TeamChannelTab',
  z.object({
    id: z.string(),
    displayName: z.string(),
    webUrl: z.string().nullable(),
    sortOrderIndex: z.string().nullable(),
    configuration: TabConfiguration,
    teamsApp: z.object({
      id: z.string(),
      externalId: z.string().nullable(),
      displayName: z.string(),
      distributionMethod: z.string(),
    }),
  }),
);
export type TeamChannelTab = z.output<typeof TeamChannelTab>;

export const TeamChannelTabPayload = model(
  'TeamChannelTabPayload',
  z.strictObject({
    displayName: z.string().trim().min(1).max(128),
    teamsAppId: z.string().trim().min(1).max(256),
    configuration: tabConfigurationInput.default({}),
  }),
);
export type TeamChannelTabPayload = z.output<typeof TeamChannelTabPayload>;

export const ArchiveTeamRequest = model(
  'ArchiveTeamRequest',
  z.strictObject({ shouldSetSpoSiteReadOnlyForMembers: z.boolean().default(false) }),
);
