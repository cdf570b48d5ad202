import type { DelegatedGrant } from '../../domain/delegation';
import { NotFound } from '../../domain/errors';
import type { TeamInventoryItem } from '../../domain/reports/model';
import type {
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamChange,
} from '../../contract';
import {
  type ChannelFiles,
  type CloneTeamSpec,
  type NewTeamSpec,
  type OperationCheckpoint,
  type PlannedMember,
  type TeamsPlatform,
  type WelcomeOutcome,
} from '../port';
import type { GraphClient } from './client';
import { teamInventory } from './inventory';
import { addMemberWithRole, addMembersInBulk, removeMemberByUser } from './members';
import { segment } from './paths';
import { GraphChannels, teamPath } from './channels';
import { type GraphMember, type GraphTeam, graphSettings, pickSettings, toMember, toTeam } from './mapping';
import { acceptedOperation, type OperationPoller } from './operations';
import type { GroupUpdate, TeamArchive, TeamUpdate as GraphTeamUpdate } from './payloads';
import type { Binds } from './binds';
import { groupPeople } from './groupPeople';
import type { TeamProvisioner } from './provisioning';
import type { WelcomeMessenger } from './welcome';
import type { TeamWorkspace } from '../teamTools';

/**
 * Teams on Microsoft Graph v1.0. Every call goes through GraphClient (token, retries, errors), and
 * the answers are translated into Steward's wire models; unknown ids throw NotFound.
 */
export class GraphTeams implements TeamsPlatform {
  private readonly channels: GraphChannels;

  constructor(
    private readonly client: GraphClient,
    private readonly poller: OperationPoller,
    private readonly provisioner: TeamProvisioner,
    private readonly binds: Binds,
    private readonly messenger: WelcomeMessenger,
    /** Channels' files folders and what a template puts in them (`files.ts`). */
    readonly files: ChannelFiles,
    /** The plan, tags and apps a template builds (`teamTools.ts`). */
    readonly workspace: TeamWorkspace,
  ) {
    this.channels = new GraphChannels(client, poller, binds);
  }

  /** Creates a team (group first, keyed by the provisioning key) and waits for Graph to finish it. */
  createTeam(spec: NewTeamSpec, operation?: OperationCheckpoint): Promise<Team & { found?: boolean }> {
    return this.provisioner.createTeam(spec, operation);
  }

  /** Clones a team with the chosen parts and waits for the copy (or for the clone `operation` names). */
  cloneTeam(spec: CloneTeamSpec, operation?: OperationCheckpoint): Promise<Team> {
    return this.provisioner.cloneTeam(spec, operation);
  }

  /** The owners and members the group's creation request carries (`groupPeople`). */
  membersAtCreation(spec: Pick<NewTeamSpec, 'ownerId' | 'members'>): PlannedMember[] {
    const { owners, members } = groupPeople(spec);
    return [
      ...owners.map((id) => ({ id, role: 'owner' as const })),
      ...members.filter((id) => !owners.includes(id)).map((id) => ({ id, role: 'member' as const })),
    ];
  }

  /** The team created under `key`, if it exists yet. */
  findTeamByProvisioningKey(key: string): Promise<Team | undefined> {
    return this.provisioner.findTeamByProvisioningKey(key);
  }

  /** A team, or undefined when Graph does not know it. */
  async getTeam(teamId: string): Promise<Team | undefined> {
    let team: GraphTeam | undefined;
    try {
      team = await this.client.find<GraphTeam>(teamPath(teamId));
    } catch (error) {
      if (error instanceof NotFound) return undefined; // an id no path can hold
      throw error;
    }
    return team && toTeam(team);
  }

  /**
   * Name, description, visibility and classification belong to the team's group and are written
   * there; the settings objects are the team's own.
   */
  async updateTeam(teamId: string, update: TeamChange): Promise<void> {
    const group: GroupUpdate = {};
    if (update.displayName !== undefined) group.displayName = update.displayName;
    if (update.description !== undefined) group.description = update.description;
    if (update.visibility !== undefined)
      group.visibility = update.visibility === 'public' ? 'Public' : 'Private';
    if (update.classification !== undefined) group.classification = update.classification;
    const settings: GraphTeamUpdate = graphSettings(update);
    if (Object.keys(group).length > 0) {
      await this.client.send({ method: 'PATCH', path: `/groups/${segment(teamId)}`, body: group });
    }
    if (Object.keys(settings).length > 0) {
      await this.client.send({ method: 'PATCH', path: teamPath(teamId), body: settings });
    }
    // v1.0's team has no discoverySettings; beta's update takes them, of a private team only
    // (`beta/resources/teamdiscoverysettings.md`: "You can only modify discovery settings for private teams").
    const { discoverySettings } = pickSettings(update);
    if (discoverySettings && Object.keys(discoverySettings).length > 0) {
      await this.client.send({
        method: 'PATCH',
        path: this.binds.betaTeam(teamId),
        body: { discoverySettings },
      });
    }
  }

  /** Deletes the team's group (Microsoft 365 keeps it restorable for 30 days). */
  async deleteTeam(teamId: string): Promise<void> {
    await this.client.send({ method: 'DELETE', path: `/groups/${segment(teamId)}` });
  }

  /** Archives a team and waits for Graph's operation (through the job's `operation`: it parks). */
  async archiveTeam(
    teamId: string,
    setSiteReadOnlyForMembers: boolean,
    operation?: OperationCheckpoint,
  ): Promise<void> {
    const start = async () => {
      const response = await this.client.send({
        method: 'POST',
        path: `${teamPath(teamId)}/archive`,
        body: { shouldSetSpoSiteReadOnlyForMembers: setSiteReadOnlyForMembers } satisfies TeamArchive,
      });
      return acceptedOperation(response, 'archive the team');
    };
    const checkpoint = this.poller.through(operation);
    await this.poller.carryOut(checkpoint, start, `archive team ${teamId}`, 'archive');
  }

  /** Unarchives a team and waits for Graph's operation (through the job's `operation`: it parks). */
  async unarchiveTeam(teamId: string, operation?: OperationCheckpoint): Promise<void> {
    const start = async () => {
      const response = await this.client.send({ method: 'POST', path: `${teamPath(teamId)}/unarchive` });
      return acceptedOperation(response, 'unarchive the team');
    };
    const checkpoint = this.poller.through(operation);
    await this.poller.carryOut(checkpoint, start, `unarchive team ${teamId}`, 'unarchive');
  }

  /** Every member, following Graph's pages. */
  async listMembers(teamId: string): Promise<TeamMember[]> {
    const members = await this.client.list<GraphMember>(`${teamPath(teamId)}/members`);
    return members.map(toMember);
  }

  /** Adds a member with `role`; someone already there gets the role instead (`members.ts`). */
  addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember> {
    return addMemberWithRole(this.client, this.binds, teamId, userId, role);
  }

  /** Adds who is missing in bulk (`conversationMember: add`) and changes roles that differ. */
  addMembers(teamId: string, members: readonly PlannedMember[]): Promise<{ added: number; changed: number }> {
    return addMembersInBulk(this.client, this.binds, teamId, members);
  }

  /** Removes someone by their user id (Graph deletes a membership by its own id). */
  removeMember(teamId: string, userId: string): Promise<boolean> {
    return removeMemberByUser(this.client, teamId, userId);
  }

  /** Every channel the app can see. */
  listChannels(teamId: string): Promise<TeamChannel[]> {
    return this.channels.listChannels(teamId);
  }

  /** The General channel. */
  primaryChannel(teamId: string): Promise<TeamChannel> {
    return this.channels.primaryChannel(teamId);
  }

  /** Creates a channel, following Graph's operation for a shared one (`channels.ts`). */
  createChannel(
    teamId: string,
    channel: TeamChannelPayload,
    ownerId: string,
    operation?: OperationCheckpoint,
  ): Promise<TeamChannel> {
    return this.channels.createChannel(teamId, channel, ownerId, operation);
  }

  /** The tabs of a channel, with their apps. */
  listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]> {
    return this.channels.listTabs(teamId, channelId);
  }

  /** Pins a tab of a catalog app, read back for its app's details unless `withApp: false`. */
  createTab(
    teamId: string,
    channelId: string,
    tab: TeamChannelTabPayload,
    options: { withApp?: boolean } = {},
  ): Promise<TeamChannelTab> {
    return this.channels.createTab(teamId, channelId, tab, options);
  }

  /** The welcome message, as Steward's bot (see WelcomeMessenger); skipped with a reason when it cannot be. */
  welcome(teamId: string, text: string, generalChannelId?: string): Promise<WelcomeOutcome> {
    return this.messenger.welcome(teamId, text, generalChannelId);
  }

  /** The label, with the person's delegated token (see TeamProvisioner.applyLabel). */
  applyLabel(teamId: string, labelId: string, grant: DelegatedGrant): Promise<void> {
    return this.provisioner.applyLabel(teamId, labelId, grant);
  }

  /** Every team with its archive flag and owner count (see `inventory.ts`). */
  listTeamInventory(): Promise<TeamInventoryItem[]> {
    return teamInventory(
      this.client,
      (id) => this.getTeam(id),
      (id) => this.listMembers(id),
    );
  }
}
