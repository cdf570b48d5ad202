import { z } from 'zod';
import {
  DirectoryTeams,
  JoinRequest,
  JoinRequestDecision,
  JoinRequestPayload,
  JoinRequests,
  JoinRequestStatus,
} from '../../contract';
import { DIRECTORY_TOP_MAX, type JoiningService } from '../../services/joining/joining';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const safeId = /^[A-Za-z0-9:@._=-]{1,200}$/;
const TeamPath = z.object({ teamId: z.string().regex(safeId, 'Not a team id.').describe('The team id.') });
const JoinRequestPath = z.object({
  joinRequestId: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'A join request id is 1–64 letters, digits or "-".')
    .describe('The join request id.'),
});
const tag = 'Joining teams';
const VISIBILITY =
  'A caller sees the teams they belong to, public teams, and private teams listed in Teams’ search and ' +
  'suggestions (`discoverySettings.showInTeamsSearchAndSuggestions`); governance managers, Teams and global ' +
  'admins see every team.';

/** The team directory and requests to join teams (extensions: docs/guides/joining-teams.md). */
export function joiningRoutes(joining: JoiningService): Route[] {
  return [
    defineRoute({
      operationId: 'searchTeamDirectory',
      method: 'get',
      path: '/directory/teams',
      tag,
      summary: 'Search the teams the caller may see by name (an extension)',
      description: `Teams whose name is alike the search, or holds each of its words, most alike first. ${VISIBILITY}`,
      query: z.strictObject({
        search: z.string().trim().min(1).max(256).describe('Words of the team’s name.'),
        $top: z.coerce
          .number()
          .int()
          .min(1)
          .max(DIRECTORY_TOP_MAX)
          .default(10)
          .describe(`How many (1–${DIRECTORY_TOP_MAX}).`),
      }),
      responses: { 200: { description: 'The teams found.', schema: DirectoryTeams } },
      handle: async ({ caller, query, baseUrl }) => {
        const teams = await joining.search(caller, query.search, query.$top);
        return { status: 200, body: odataCollection(baseUrl, 'directory/teams', teams) };
      },
    }),
    defineRoute({
      operationId: 'createTeamJoinRequest',
      method: 'post',
      path: '/teams/{teamId}/joinRequests',
      tag,
      summary: 'Ask to join a team (an extension)',
      description:
        'The owners decide (`team_join_requested` tells them), unless the team is public and its template’s ' +
        '`allowDirectJoin` is true: then the request is approved at once and a job adds the caller ' +
        `(\`team_member_joined\`). ${VISIBILITY} A team the caller may not see is a 404.`,
      params: TeamPath,
      body: JoinRequestPayload.default({}),
      responses: {
        201: {
          description: 'The request.',
          schema: JoinRequest,
          headers: { Location: 'The request’s URL.' },
        },
        409: {
          description: 'Already a member, a request already waiting for the owners, or an archived team.',
        },
      },
      handle: async ({ caller, params, body, baseUrl }) => {
        const request = await joining.request(caller, params.teamId, body);
        return {
          status: 201,
          body: request,
          headers: { Location: `${baseUrl}${API_BASE}/joinRequests/${request.id}` },
        };
      },
    }),
    defineRoute({
      operationId: 'getTeamJoinRequests',
      method: 'get',
      path: '/teams/{teamId}/joinRequests',
      tag,
      summary: 'List the requests to join a team, newest first (an extension)',
      description: 'For the team’s owners and governance managers.',
      params: TeamPath,
      query: z.strictObject({
        status: JoinRequestStatus.optional().describe('Only requests of this status.'),
      }),
      responses: { 200: { description: 'The requests.', schema: JoinRequests } },
      handle: async ({ caller, params, query, baseUrl }) => {
        const requests = await joining.forTeam(caller, params.teamId, query.status);
        return { status: 200, body: odataCollection(baseUrl, 'joinRequests', requests) };
      },
    }),
    defineRoute({
      operationId: 'getMyJoinRequests',
      method: 'get',
      path: '/me/joinRequests',
      tag,
      summary: 'List the caller’s own requests to join teams, newest first (an extension)',
      responses: { 200: { description: 'The requests.', schema: JoinRequests } },
      handle: async ({ caller, baseUrl }) => {
        const requests = await joining.mine(caller);
        return { status: 200, body: odataCollection(baseUrl, 'joinRequests', requests) };
      },
    }),
    defineRoute({
      operationId: 'getJoinRequest',
      method: 'get',
      path: '/joinRequests/{joinRequestId}',
      tag,
      summary: 'Get a request to join a team (an extension)',
      description: 'For its requester, the team’s owners and governance managers.',
      params: JoinRequestPath,
      responses: { 200: { description: 'The request.', schema: JoinRequest } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await joining.get(caller, params.joinRequestId),
      }),
    }),
    defineRoute({
      operationId: 'decideTeamJoinRequest',
      method: 'post',
      path: '/joinRequests/{joinRequestId}/decision',
      tag,
      summary: 'Approve or decline a request to join a team (an extension)',
      description:
        'For the team’s owners and governance managers; anyone else is refused with 403. Approving queues the ' +
        'job that adds the member; the requester is told either way (`team_join_decided`).',
      params: JoinRequestPath,
      body: JoinRequestDecision,
      responses: {
        200: { description: 'The request as decided.', schema: JoinRequest },
        409: { description: 'Decided already, or an archived team.' },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await joining.decide(caller, params.joinRequestId, body),
      }),
    }),
  ];
}
