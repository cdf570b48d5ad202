import type { DirectoryReader } from '../domain/directory';
import type { TeamInventoryItem } from '../domain/reports/model';
import type {
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamSettings,
  TeamChange,
} from '../domain/wire';

/** What a new team is made of. */
export interface NewTeamSpec {
  displayName: string;
  description: string;
  visibility: 'public' | 'private';
  /** The mail alias of the team's group (letters and digits only). */
  mailNickname: string;
  settings: TeamSettings;
  sensitivityLabelId: string | null;
  /** The first owner: Graph needs one when an app creates a team. */
  ownerId: string;
  /**
   * A key unique to the job that creates this team, recorded with it, so that a job resumed after
   * a crash finds the team it created (`findTeamByProvisioningKey`) instead of creating another.
   */
  provisioningKey: string;
}

/** A team made by copying another one. */
export interface CloneTeamSpec extends Omit<NewTeamSpec, 'settings' | 'sensitivityLabelId'> {
  sourceTeamId: string;
  parts: { apps: boolean; tabs: boolean; settings: boolean; channels: boolean; members: boolean };
}

export { PlatformError } from '../domain/errors';

/** Teams, channels, tabs and members, whichever platform holds them. Unknown ids throw NotFound. */
export interface TeamsPlatform {
  /** Creates a team and resolves once it exists (Graph's asynchronous operation is awaited). */
  createTeam(spec: NewTeamSpec): Promise<Team>;
  /** Clones `spec.sourceTeamId` with the chosen parts and resolves once the copy exists. */
  cloneTeam(spec: CloneTeamSpec): Promise<Team>;
  /** The team a job created earlier, if it got that far. */
  findTeamByProvisioningKey(key: string): Promise<Team | undefined>;
  getTeam(teamId: string): Promise<Team | undefined>;
  updateTeam(teamId: string, update: TeamChange): Promise<void>;
  deleteTeam(teamId: string): Promise<void>;
  archiveTeam(teamId: string, setSiteReadOnlyForMembers: boolean): Promise<void>;
  unarchiveTeam(teamId: string): Promise<void>;
  listMembers(teamId: string): Promise<TeamMember[]>;
  /** Adds a member, or changes an existing member's role; adding someone twice is not an error. */
  addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember>;
  listChannels(teamId: string): Promise<TeamChannel[]>;
  primaryChannel(teamId: string): Promise<TeamChannel>;
  /** Creates a channel; `ownerId` becomes the owner of a private channel. */
  createChannel(teamId: string, channel: TeamChannelPayload, ownerId: string): Promise<TeamChannel>;
  listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]>;
  createTab(teamId: string, channelId: string, tab: TeamChannelTabPayload): Promise<TeamChannelTab>;
  /** Posts a message (HTML) in a channel, as the welcome message is. */
  postMessage(teamId: string, channelId: string, html: string): Promise<void>;
  /**
   * Every team of the tenant (not only those Steward provisioned) with its archive flag and owner
   * count, by name: what the lifecycle reports (archived, orphaned teams) are computed from.
   */
  listTeamInventory(): Promise<TeamInventoryItem[]>;
}

export type { TeamInventoryItem };

/**
 * The collaboration platform Steward governs: Microsoft Graph in production, the embedded
 * simulated tenant otherwise. Services depend on this port, never on an adapter.
 */
export interface Platform {
  readonly kind: 'embedded' | 'graph';
  readonly directory: DirectoryReader;
  readonly teams: TeamsPlatform;
  /** Releases connections (Graph's pool); called when Steward stops. */
  close?(): Promise<void>;
}
