import type { DelegatedGrant } from '../../domain/delegation';
import { Conflict, NotFound } from '../../domain/errors';
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
  PlatformError,
  type TeamsPlatform,
  type WelcomeOutcome,
} from '../port';
import type { GraphClient } from './client';
import type { GraphResponse } from './types';
import { teamInventory } from './inventory';
import { addMembersInBulk, MEMBER_TYPE, removeMemberByUser } from './members';
import { segment } from './paths';
import {
  type GraphChannel,
  type GraphMember,
  type GraphTab,
  type GraphTeam,
  graphSettings,
  pickSettings,
  toChannel,
  toMember,
  toTab,
  toTeam,
} from './mapping';
import { acceptedOperation, type OperationPoller } from './operations';
import { sameChannelName } from '../../domain/channelNames';
import type {
  ChannelCreate,
  GroupUpdate,
  MemberAdd,
  MemberUpdate,
  TabCreate,
  TeamArchive,
  TeamUpdate as GraphTeamUpdate,
} from './payloads';
import { type Binds, groupPeople, type TeamProvisioner } from './provisioning';
import type { WelcomeMessenger } from './welcome';
import type { TeamWorkspace } from '../teamTools';

/**
 * Teams on Microsoft Graph v1.0. Every call goes through GraphClient (token, retries, errors), and
 * the answers are translated into Steward's wire models; unknown ids throw NotFound.
 */
export class GraphTeams implements TeamsPlatform {
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
  ) {}

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

  /**
   * Adds a member with `role`. Someone already there is not an error: Graph answers 409, and the
   * existing membership gets the requested role instead.
   */
  async addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember> {
    const roles = role === 'owner' ? ['owner'] : [];
    let member: GraphMember | undefined;
    try {
      const response = await this.client.send<GraphMember>({
        method: 'POST',
        path: `${teamPath(teamId)}/members`,
        body: {
          '@odata.type': MEMBER_TYPE,
          roles,
          'user@odata.bind': this.binds.user(userId),
        } satisfies MemberAdd,
      });
      member = response.body;
    } catch (error) {
      if (!(error instanceof PlatformError && error.status === 409)) throw error;
      member = (await this.client.list<GraphMember>(`${teamPath(teamId)}/members`)).find(
        (m) => m.userId === userId,
      );
      if (!member) throw error;
    }
    if (!member) throw new PlatformError('Microsoft Graph added the member but returned nobody', 502, false);
    if (toMember(member).roles.includes('owner') === (role === 'owner')) return toMember(member);
    const updated = await this.client.send<GraphMember>({
      method: 'PATCH',
      path: `${teamPath(teamId)}/members/${segment(member.id)}`,
      body: { '@odata.type': MEMBER_TYPE, roles } satisfies MemberUpdate,
    });
    return toMember(updated.body ?? { ...member, roles });
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
  async listChannels(teamId: string): Promise<TeamChannel[]> {
    return (await this.client.list<GraphChannel>(`${teamPath(teamId)}/channels`)).map(toChannel);
  }

  /** The General channel. */
  async primaryChannel(teamId: string): Promise<TeamChannel> {
    return toChannel(await this.client.get<GraphChannel>(`${teamPath(teamId)}/primaryChannel`));
  }

  /**
   * Creates a channel; an app must name the owner of a private or shared one (one owner only for a
   * shared channel: Graph refuses more at creation). Graph makes a shared channel asynchronously: it
   * answers 202 with the operation in `Content-Location`, followed through `operation` (the job
   * parks between looks), and the channel is read once the operation has succeeded.
   */
  async createChannel(
    teamId: string,
    channel: TeamChannelPayload,
    ownerId: string,
    operation?: OperationCheckpoint,
  ): Promise<TeamChannel> {
    const checkpoint = this.poller.through(operation);
    const saved = checkpoint.state;
    if (channel.membershipType === 'shared' && saved?.location) {
      const id = await this.poller.follow(
        checkpoint,
        { ...saved, location: saved.location },
        `create the shared channel "${channel.displayName}"`,
        'channel',
        true,
      );
      return this.createdChannel(teamId, id, channel.displayName);
    }
    const body: ChannelCreate = {
      displayName: channel.displayName,
      membershipType: channel.membershipType,
    };
    if (channel.description !== undefined) body.description = channel.description;
    if (channel.membershipType !== 'standard') {
      body.members = [
        { '@odata.type': MEMBER_TYPE, roles: ['owner'], 'user@odata.bind': this.binds.user(ownerId) },
      ];
    }
    let response: GraphResponse<GraphChannel>;
    try {
      response = await this.client.send<GraphChannel>({
        method: 'POST',
        path: `${teamPath(teamId)}/channels`,
        body,
      });
    } catch (error) {
      // Graph's 409 NameAlreadyExists: the same Conflict the embedded platform raises (an API 409).
      if (error instanceof PlatformError && error.status === 409) {
        throw new Conflict(`Team ${teamId} already has a channel named "${channel.displayName}".`);
      }
      throw error;
    }
    if (response.status === 202) {
      const location = response.headers['location'] ?? response.headers['content-location'];
      if (!location)
        throw new PlatformError(
          'Microsoft Graph accepted the channel without an operation to follow',
          502,
          false,
        );
      const id = await this.poller.follow(
        checkpoint,
        { location },
        `create the shared channel "${channel.displayName}"`,
        'channel',
      );
      return this.createdChannel(teamId, id, channel.displayName);
    }
    if (!response.body)
      throw new PlatformError('Microsoft Graph created the channel but returned nothing', 502, false);
    return toChannel(response.body);
  }

  /** The channel an operation made: by its id when the operation names it, else by its name. */
  private async createdChannel(teamId: string, id: string | undefined, name: string): Promise<TeamChannel> {
    const channels = await this.listChannels(teamId);
    const made =
      channels.find((c) => id !== undefined && c.id === id) ??
      channels.find((c) => sameChannelName(c.displayName, name));
    if (!made)
      throw new PlatformError(`Microsoft Graph made the channel "${name}" but does not list it`, 502, true);
    return made;
  }

  /** The tabs of a channel, with their apps. */
  async listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]> {
    const tabs = await this.client.list<GraphTab>(`${channelPath(teamId, channelId)}/tabs?$expand=teamsApp`);
    return tabs.map(toTab);
  }

  /**
   * Pins a tab of a catalog app. Graph's answer does not expand the app, so the tab is read back
   * for its app's details, unless the caller does not want them (`withApp: false`: one call fewer,
   * the app known by its id only).
   */
  async createTab(
    teamId: string,
    channelId: string,
    tab: TeamChannelTabPayload,
    options: { withApp?: boolean } = {},
  ): Promise<TeamChannelTab> {
    const response = await this.client.send<GraphTab>({
      method: 'POST',
      path: `${channelPath(teamId, channelId)}/tabs`,
      body: {
        displayName: tab.displayName,
        'teamsApp@odata.bind': this.binds.app(tab.teamsAppId),
        configuration: tab.configuration,
      } satisfies TabCreate,
    });
    const id = response.body?.id;
    if (!id) throw new PlatformError('Microsoft Graph created the tab but returned no id', 502, false);
    if (options.withApp === false) return toTab({ ...response.body, id, teamsApp: { id: tab.teamsAppId } });
    const created = await this.client.get<GraphTab>(
      `${channelPath(teamId, channelId)}/tabs/${segment(id)}?$expand=teamsApp`,
    );
    return toTab(created);
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

function teamPath(teamId: string): string {
  return `/teams/${segment(teamId)}`;
}

function channelPath(teamId: string, channelId: string): string {
  return `${teamPath(teamId)}/channels/${segment(channelId)}`;
}
