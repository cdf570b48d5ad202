import type {
  DirectoryTeams,
  JoinRequest,
  JoinRequestDecision,
  JoinRequestPayload,
  JoinRequests,
  JoinRequestStatus,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import type { Send } from './send';

/** The team directory and requests to join teams (extensions). */
export function joiningOperations(send: Send) {
  return {
    /** Teams the caller may see whose name answers `search` (`GET /directory/teams`). */
    async searchTeamDirectory(
      query: { search: string; top?: number },
      options?: CallOptions,
    ): Promise<DirectoryTeams> {
      const path = apiPath('/directory/teams', {}, { search: query.search, $top: query.top });
      return (
        await send<DirectoryTeams>({ operationId: 'searchTeamDirectory', method: 'GET', path }, options)
      ).body;
    },

    /** Asks to join a team (`POST /teams/{teamId}/joinRequests`). Never retried. */
    async createTeamJoinRequest(
      teamId: string,
      payload: JoinRequestPayload = {},
      options?: CallOptions,
    ): Promise<JoinRequest> {
      const path = apiPath('/teams/{teamId}/joinRequests', { teamId });
      return (
        await send<JoinRequest>(
          { operationId: 'createTeamJoinRequest', method: 'POST', path, body: payload },
          options,
        )
      ).body;
    },

    /** A team's requests to join, for its owners (`GET /teams/{teamId}/joinRequests`). */
    async getTeamJoinRequests(
      teamId: string,
      query: { status?: JoinRequestStatus } = {},
      options?: CallOptions,
    ): Promise<JoinRequests> {
      const path = apiPath('/teams/{teamId}/joinRequests', { teamId }, { status: query.status });
      return (await send<JoinRequests>({ operationId: 'getTeamJoinRequests', method: 'GET', path }, options))
        .body;
    },

    /** The caller's own requests to join teams (`GET /me/joinRequests`). */
    async getMyJoinRequests(options?: CallOptions): Promise<JoinRequests> {
      const path = apiPath('/me/joinRequests', {});
      return (await send<JoinRequests>({ operationId: 'getMyJoinRequests', method: 'GET', path }, options))
        .body;
    },

    /** One request to join a team (`GET /joinRequests/{joinRequestId}`). */
    async getJoinRequest(joinRequestId: string, options?: CallOptions): Promise<JoinRequest> {
      const path = apiPath('/joinRequests/{joinRequestId}', { joinRequestId });
      return (await send<JoinRequest>({ operationId: 'getJoinRequest', method: 'GET', path }, options)).body;
    },

    /** Approves or declines a request to join (`POST /joinRequests/{id}/decision`). Never retried. */
    async decideTeamJoinRequest(
      joinRequestId: string,
      decision: JoinRequestDecision,
      options?: CallOptions,
    ): Promise<JoinRequest> {
      const path = apiPath('/joinRequests/{joinRequestId}/decision', { joinRequestId });
      return (
        await send<JoinRequest>(
          { operationId: 'decideTeamJoinRequest', method: 'POST', path, body: decision },
          options,
        )
      ).body;
    },
  };
}

export type JoiningOperations = ReturnType<typeof joiningOperations>;
