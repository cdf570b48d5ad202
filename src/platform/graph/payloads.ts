import type * as MSGraph from '@microsoft/microsoft-graph-types';

/**
 * The bodies Steward sends to Graph, typed with Microsoft's own typings so that a misspelt field
 * is a compile error (`satisfies` at each call). `@odata.bind` annotations and action parameters
 * are not in the typings; they are spelt here once, from the API reference page named beside each.
 */

type Bind = string;

/** `api/group-post-groups.md`, through `PATCH /groups(uniqueName=…)` with `Prefer: create-if-missing`. */
export type GroupUpsert = Pick<
  MSGraph.Group,
  | 'displayName'
  | 'description'
  | 'mailNickname'
  | 'mailEnabled'
  | 'securityEnabled'
  | 'groupTypes'
  | 'visibility'
> & { 'owners@odata.bind': Bind[]; 'members@odata.bind': Bind[] };

/** `api/group-update.md`. */
export type GroupUpdate = Pick<
  MSGraph.Group,
  'displayName' | 'description' | 'visibility' | 'classification' | 'assignedLabels'
>;

/** `api/team-post.md`, example "Create a team from group". */
export type TeamFromGroup = Pick<
  MSGraph.Team,
  'memberSettings' | 'guestSettings' | 'messagingSettings' | 'funSettings'
> & { 'template@odata.bind': Bind; 'group@odata.bind': Bind };

/** `api/team-update.md` (v1.0 has no `discoverySettings`; they are beta-only). */
export type TeamUpdate = Pick<
  MSGraph.Team,
  'memberSettings' | 'guestSettings' | 'messagingSettings' | 'funSettings'
>;

/** `api/team-clone.md`: `partsToClone` is a comma-separated flags string. */
export interface TeamClone {
  displayName: string;
  description?: string;
  mailNickname: string;
  visibility?: MSGraph.TeamVisibilityType;
  partsToClone: string;
}

/** `api/team-archive.md`. */
export interface TeamArchive {
  shouldSetSpoSiteReadOnlyForMembers: boolean;
}

/** An `aadUserConversationMember` to add (`api/team-post-members.md`). */
export type MemberAdd = Pick<MSGraph.AadUserConversationMember, 'roles'> & {
  '@odata.type': '#microsoft.graph.aadUserConversationMember';
  'user@odata.bind': Bind;
};

/** `api/team-update-members.md`. */
export type MemberUpdate = Pick<MSGraph.AadUserConversationMember, 'roles'> & {
  '@odata.type': '#microsoft.graph.aadUserConversationMember';
};

/** `api/conversationmembers-add.md`: up to 200 members per call. */
export interface MembersAdd {
  values: MemberAdd[];
}

/** The answer of `conversationMember: add`: one result per member, `error` set for those that failed. */
export interface MembersAddResult {
  value?: MSGraph.AadUserConversationMemberResult[];
}

/** `api/channel-post.md`. */
export type ChannelCreate = Pick<MSGraph.Channel, 'displayName' | 'description' | 'membershipType'> & {
  members?: MemberAdd[];
};

/** `api/channel-post-tabs.md`. */
export type TabCreate = Pick<MSGraph.TeamsTab, 'displayName' | 'configuration'> & {
  'teamsApp@odata.bind': Bind;
};

/** `api/team-post-installedapps.md`. */
export interface AppInstall {
  'teamsApp@odata.bind': Bind;
}

export type { TeamsAsyncOperation } from '@microsoft/microsoft-graph-types';
