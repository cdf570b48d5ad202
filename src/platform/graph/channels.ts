import { Conflict } from '../../domain/errors';
import type { TeamChannel, TeamChannelPayload, TeamChannelTab, TeamChannelTabPayload } from '../../contract';
import { type OperationCheckpoint, PlatformError } from '../port';
import type { GraphClient } from './client';
import type { GraphResponse } from './types';
import { MEMBER_TYPE } from './members';
import { segment } from './paths';
import { type GraphChannel, type GraphTab, toChannel, toTab } from './mapping';
import type { OperationPoller } from './operations';
import { sameChannelName } from '../../domain/channelNames';
import type { ChannelCreate, TabCreate } from './payloads';
import type { Binds } from './binds';

/**
 * A team's channels and their tabs on Microsoft Graph: the part of GraphTeams that lays out where
 * people talk, shared channels followed through Graph's operation like any long-running call.
 */
export class GraphChannels {
  constructor(
    private readonly client: GraphClient,
    private readonly poller: OperationPoller,
    private readonly binds: Binds,
  ) {}

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
}

export function teamPath(teamId: string): string {
  return `/teams/${segment(teamId)}`;
}

function channelPath(teamId: string, channelId: string): string {
  return `${teamPath(teamId)}/channels/${segment(channelId)}`;
}
