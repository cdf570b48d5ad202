import { randomUUID } from 'node:crypto';
import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { fail, type Json, type Reply } from './protocol';
import {
  type ChannelRecord,
  type OperationRecord,
  type ParsedRequest,
  type TeamRecord,
  MEMBER_TYPE,
  BULK_ADD_LIMIT,
} from './records';
import { TeamsApi } from './teamOperations';

/** Members, channels, tabs, messages and installed apps of a team. */
export abstract class ChannelsApi extends TeamsApi {
  /**
   * `POST /teams/{id}/members` (`api/team-post-members.md`): 201 with the conversationMember. An
   * application needs TeamMember.ReadWriteNonOwnerRole.All or TeamMember.ReadWrite.All, the latter
   * to make an owner (the former's name says it: no owner role); without them Graph's 403.
   */
  protected addMember(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    if (request.body['@odata.type'] !== MEMBER_TYPE)
      return fail(400, 'BadRequest', 'Unsupported member type.');
    const owner = ((request.body.roles as string[] | undefined) ?? []).includes('owner');
    const refused = this.denied(
      owner
        ? ['TeamMember.ReadWrite.All']
        : ['TeamMember.ReadWriteNonOwnerRole.All', 'TeamMember.ReadWrite.All'],
    );
    if (refused) return refused;
    const userId = this.userFromBind(String(request.body['user@odata.bind'] ?? ''));
    if (team.members.some((m) => m.userId === userId))
      return fail(409, 'Conflict', 'User is already a member of the team.');
    const member = { id: randomUUID(), userId, roles: (request.body.roles as string[] | undefined) ?? [] };
    team.members.push(member);
    return { status: 201, body: this.memberJson(member) };
  }

  protected patchMember(request: ParsedRequest, teamId: string, memberId: string): Reply {
    const member = this.team(teamId).members.find((m) => m.id === memberId);
    if (!member) return fail(404, 'NotFound', 'Member not found.');
    if (request.body['@odata.type'] !== MEMBER_TYPE)
      return fail(400, 'BadRequest', 'Unsupported member type.');
    member.roles = (request.body.roles as string[] | undefined) ?? [];
    return { status: 200, body: this.memberJson(member) };
  }

  /** `DELETE /teams/{id}/members/{membership-id}` (`api/conversationmember-delete.md`): 204, no body. */
  protected deleteMember(teamId: string, memberId: string): Reply {
    const team = this.team(teamId);
    const index = team.members.findIndex((m) => m.id === memberId);
    if (index < 0) return fail(404, 'NotFound', 'Member not found.');
    team.members.splice(index, 1);
    return { status: 204 };
  }

  protected listChannels(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    return this.collection(
      request,
      team.channels.map((c) => this.channelJson(team, c)),
    );
  }

  protected primaryChannel(teamId: string): Reply {
    const team = this.team(teamId);
    return { status: 200, body: this.channelJson(team, team.channels[0] as ChannelRecord) };
  }

  protected createChannel(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const body = request.body;
    const type = typeof body.membershipType === 'string' ? body.membershipType : 'standard';
    if (typeof body.displayName !== 'string') return fail(400, 'BadRequest', 'displayName is required.');
    if (team.channels.some((c) => c.displayName.toLowerCase() === String(body.displayName).toLowerCase())) {
      return fail(409, 'NameAlreadyExists', 'Channel name already existed, please use other name.');
    }
    if (type !== 'standard') {
      const members = (body.members as Json[] | undefined) ?? [];
      const owner = members.find((m) => (m.roles as string[] | undefined)?.includes('owner'));
      if (!owner)
        return fail(
          400,
          'BadRequest',
          'An owner is required to create a private channel with application permissions.',
        );
      this.userFromBind(String(owner['user@odata.bind'] ?? ''));
    }
    const description = typeof body.description === 'string' ? body.description : null;
    if (type === 'shared') return this.createSharedChannel(team, body, description);
    const channel = this.newChannel(body.displayName, description, type);
    team.channels.push(channel);
    return { status: 201, body: this.channelJson(team, channel) };
  }

  /**
   * A shared channel (`api/channel-post.md`): only one owner at creation ("Adding multiple owners
   * results in a 400 Bad Request"), and made asynchronously: 202 with the teamsAsyncOperation in
   * `Content-Location` and no body; the channel exists once the operation has succeeded.
   */
  private createSharedChannel(team: TeamRecord, body: Json, description: string | null): Reply {
    const members = (body.members as Json[] | undefined) ?? [];
    const owners = members.filter((m) => (m.roles as string[] | undefined)?.includes('owner'));
    if (owners.length > 1)
      return fail(400, 'BadRequest', 'A shared channel can have only one owner when it is created.');
    const pending = [...this.operations.values()].some(
      (o) =>
        o.teamId === team.id &&
        o.operationType === 'createChannel' &&
        o.channelName?.toLowerCase() === String(body.displayName).toLowerCase() &&
        (o.status === 'notStarted' || o.status === 'inProgress'),
    );
    if (pending)
      return fail(409, 'NameAlreadyExists', 'Channel name already existed, please use other name.');
    const channel = this.newChannel(String(body.displayName), description, 'shared');
    const operation: OperationRecord = {
      id: randomUUID(),
      teamId: team.id,
      operationType: 'createChannel',
      createdDateTime: new Date().toISOString(),
      pendingPolls: this.operationPolls,
      readyAt: Date.now() + this.drawLatency(),
      polls: 0,
      failure: this.nextOperationFailure,
      targetResourceId: channel.id,
      channelName: channel.displayName,
      finish: () => {
        // The channel is made when the operation ends: its site's clock starts then.
        channel.createdDateTime = new Date().toISOString();
        team.channels.push(channel);
      },
      status: 'notStarted',
    };
    this.nextOperationFailure = undefined;
    this.operations.set(operation.id, operation);
    return { status: 202, headers: { 'content-location': `/teams/${team.id}/operations/${operation.id}` } };
  }

  protected listTabs(request: ParsedRequest, teamId: string, channelId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const expand = request.url.searchParams.get('$expand') === 'teamsApp';
    return this.collection(
      request,
      channel.tabs.map((t) => this.tabJson(channel, t, expand)),
    );
  }

  protected createTab(request: ParsedRequest, teamId: string, channelId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const bind = /\/appCatalogs\/teamsApps\/([^/]+)$/.exec(String(request.body['teamsApp@odata.bind'] ?? ''));
    const appId = decodeURIComponent(bind?.[1] ?? '');
    if (!this.apps.has(appId)) return fail(404, 'NotFound', `App ${appId} is not in the catalog.`);
    const tab = {
      id: randomUUID(),
      displayName: String(request.body.displayName ?? ''),
      teamsAppId: appId,
      configuration: (request.body.configuration as Json | undefined) ?? {},
    };
    channel.tabs.push(tab);
    return { status: 201, body: this.tabJson(channel, tab, false) };
  }

  protected getTab(request: ParsedRequest, teamId: string, channelId: string, tabId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const tab = channel.tabs.find((t) => t.id === tabId);
    if (!tab) return fail(404, 'NotFound', 'Tab not found.');
    return {
      status: 200,
      body: this.tabJson(channel, tab, request.url.searchParams.get('$expand') === 'teamsApp'),
    };
  }

  /**
   * A channel message with the app's own token: Graph allows application permissions here only to
   * import messages into a team in migration mode (`api/channel-post-messages.md`), which this
   * simulator does not model, so the answer is Graph's 401.
   */
  protected postMessage(_request: ParsedRequest, teamId: string, channelId: string): Reply {
    this.channel(teamId, channelId);
    return fail(
      401,
      'Unauthorized',
      'Message POST is allowed in application-only context only for import purposes.',
    );
  }

  /** `conversationMember: add`: one result per member, errors per member rather than for the call. */
  protected addMembers(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const values = request.body.values;
    if (!Array.isArray(values) || values.length === 0) return fail(400, 'BadRequest', 'values is required.');
    if (values.length > BULK_ADD_LIMIT) {
      return fail(400, 'BadRequest', `At most ${BULK_ADD_LIMIT} members can be added in one request.`);
    }
    const results: MSGraph.AadUserConversationMemberResult[] = [];
    for (const value of values as Json[]) {
      const bind = String(value['user@odata.bind'] ?? '');
      const match = /\/users(?:\('([^']+)'\)|\/([^/]+))$/.exec(bind);
      const userId = decodeURIComponent(match?.[1] ?? match?.[2] ?? '');
      const error = (code: string, message: string) => ({ code, message });
      if (value['@odata.type'] !== MEMBER_TYPE) {
        results.push({ userId, error: error('BadRequest', 'Unsupported member type.') });
      } else if (!this.users.has(userId)) {
        results.push({ userId, error: error('NotFound', `User ${userId} was not found.`) });
      } else {
        if (!team.members.some((m) => m.userId === userId)) {
          team.members.push({ id: randomUUID(), userId, roles: (value.roles as string[] | undefined) ?? [] });
        }
        results.push({ userId, error: null });
      }
    }
    return {
      status: 200,
      body: {
        value: results.map((r) => ({
          '@odata.type': '#microsoft.graph.aadUserConversationMemberResult',
          ...r,
        })),
      },
    };
  }

  /**
   * `POST /teams/{id}/installedApps`: the app, named by its catalog id, must be in the catalog;
   * installing it twice is a 409. Another app than the caller's own needs
   * `TeamsAppInstallation.ReadWriteForTeam.All` (its own, `…ReadWriteSelfForTeam.All` too).
   */
  protected installApp(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const bind = /\/appCatalogs\/teamsApps(?:\('([^']+)'\)|\/([^/]+))$/.exec(
      String(request.body['teamsApp@odata.bind'] ?? ''),
    );
    const appId = decodeURIComponent(bind?.[1] ?? bind?.[2] ?? '');
    const self = appId === this.stewardApp()?.id;
    if (
      !this.granted.has('TeamsAppInstallation.ReadWriteForTeam.All') &&
      !(self && this.granted.has('TeamsAppInstallation.ReadWriteSelfForTeam.All'))
    )
      return fail(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (!this.apps.has(appId)) {
      return fail(404, 'NotFound', `App ${appId} is not in the catalog.`);
    }
    if (team.installedApps.has(appId)) return fail(409, 'Conflict', 'The app is already installed.');
    team.installedApps.add(appId);
    return { status: 201 };
  }
}
