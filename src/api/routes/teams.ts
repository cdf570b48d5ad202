import { z } from 'zod';
import {
  ArchiveTeamRequest,
  Job,
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamMembershipPayload,
  TeamUpdate,
} from '../../contract';
import type { TeamService } from '../../services/teams/teams';
import { API_BASE, defineRoute, type Route } from '../route';

const safeId = /^[A-Za-z0-9:@._=-]{1,200}$/;
const TeamPath = z.object({ teamId: z.string().regex(safeId, 'Not a team id.').describe('The team id.') });
const ChannelPath = TeamPath.extend({
  channelId: z.string().regex(safeId, 'Not a channel id.').describe('The channel id.'),
});
const tag = 'Teams';

/** Managing teams once they exist. */
export function teamRoutes(teams: TeamService): Route[] {
  const archiveRoute = (action: 'archive' | 'unarchive') =>
    defineRoute({
      operationId: action === 'archive' ? 'archiveTeam' : 'unarchiveTeam',
      method: 'post',
      path: `/teams/{teamId}/${action}`,
      tag,
      summary: action === 'archive' ? 'Archive a team' : 'Unarchive a team',
      description: 'Asynchronous: the answer is 202 with `Location` pointing at the TeamArchiveRequest job.',
      params: TeamPath,
      ...(action === 'archive' ? { body: ArchiveTeamRequest.optional() } : {}),
      responses: {
        202: { description: 'The job was queued.', schema: Job, headers: { Location: 'The job’s URL.' } },
        409: {
          description: `${action === 'archive' ? 'Already archived' : 'Not archived'}, or being ${
            action === 'archive' ? 'unarchived' : 'archived'
          } (\`alreadyUnderWay\`); the same request while its job is under way answers 202 with that job.`,
        },
      },
      handle: async ({ caller, params, body, baseUrl }) => {
        const readOnly = (body as { shouldSetSpoSiteReadOnlyForMembers?: boolean } | undefined)
          ?.shouldSetSpoSiteReadOnlyForMembers;
        const job = await teams.archive(caller, params.teamId, action, readOnly ?? false);
        return { status: 202, body: job, headers: { Location: `${baseUrl}${API_BASE}/jobs/${job.id}` } };
      },
    });

  return [
    defineRoute({
      operationId: 'getTeam',
      method: 'get',
      path: '/teams/{teamId}',
      tag,
      summary: 'Get a team',
      params: TeamPath,
      responses: { 200: { description: 'The team.', schema: Team } },
      handle: async ({ params }) => ({ status: 200, body: await teams.get(params.teamId) }),
    }),
    defineRoute({
      operationId: 'updateTeam',
      method: 'patch',
      path: '/teams/{teamId}',
      tag,
      summary: "Change a team's name, description, visibility or settings",
      params: TeamPath,
      body: TeamUpdate,
      responses: { 204: { description: 'Changed.' } },
      handle: async ({ caller, params, body }) => {
        await teams.update(caller, params.teamId, body);
        return { status: 204 };
      },
    }),
    defineRoute({
      operationId: 'deleteTeam',
      method: 'delete',
      path: '/teams/{teamId}',
      tag,
      summary: 'Delete a team (and its group)',
      params: TeamPath,
      responses: { 204: { description: 'Deleted.' } },
      handle: async ({ caller, params }) => {
        await teams.delete(caller, params.teamId);
        return { status: 204 };
      },
    }),
    archiveRoute('archive'),
    archiveRoute('unarchive'),
    defineRoute({
      operationId: 'getTeamMembers',
      method: 'get',
      path: '/teams/{teamId}/members',
      tag,
      summary: "List a team's members and owners",
      params: TeamPath,
      responses: { 200: { description: 'The members.', schema: z.array(TeamMember) } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await teams.members(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'addTeamMember',
      method: 'post',
      path: '/teams/{teamId}/members',
      tag,
      summary: 'Add a member or an owner',
      params: TeamPath,
      body: TeamMembershipPayload,
      responses: {
        201: { description: 'The member.', schema: TeamMember },
        409: { description: 'Archived team.' },
      },
      handle: async ({ caller, params, body }) => ({
        status: 201,
        body: await teams.addMember(caller, params.teamId, body),
      }),
    }),
    defineRoute({
      operationId: 'getTeamChannels',
      method: 'get',
      path: '/teams/{teamId}/channels',
      tag,
      summary: "List a team's channels",
      params: TeamPath,
      responses: { 200: { description: 'The channels.', schema: z.array(TeamChannel) } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await teams.channels(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'createTeamChannel',
      method: 'post',
      path: '/teams/{teamId}/channels',
      tag,
      summary: 'Create a channel',
      params: TeamPath,
      body: TeamChannelPayload,
      responses: {
        201: { description: 'The channel.', schema: TeamChannel },
        409: { description: 'A channel of that name exists, or the team is archived.' },
      },
      handle: async ({ caller, params, body }) => ({
        status: 201,
        body: await teams.createChannel(caller, params.teamId, body),
      }),
    }),
    defineRoute({
      operationId: 'getTeamPrimaryChannel',
      method: 'get',
      path: '/teams/{teamId}/channels/primary',
      tag,
      summary: "Get a team's General channel",
      params: TeamPath,
      responses: { 200: { description: 'The General channel.', schema: TeamChannel } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await teams.primaryChannel(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'getTeamChannelTabs',
      method: 'get',
      path: '/teams/{teamId}/channels/{channelId}/tabs',
      tag,
      summary: "List a channel's tabs",
      params: ChannelPath,
      responses: { 200: { description: 'The tabs.', schema: z.array(TeamChannelTab) } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await teams.tabs(caller, params.teamId, params.channelId),
      }),
    }),
    defineRoute({
      operationId: 'createTeamChannelTab',
      method: 'post',
      path: '/teams/{teamId}/channels/{channelId}/tabs',
      tag,
      summary: 'Add a tab to a channel',
      params: ChannelPath,
      body: TeamChannelTabPayload,
      responses: {
        201: { description: 'The tab.', schema: TeamChannelTab },
        409: { description: 'Archived team.' },
      },
      handle: async ({ caller, params, body }) => ({
        status: 201,
        body: await teams.createTab(caller, params.teamId, params.channelId, body),
      }),
    }),
  ];
}
