import type {
  ArchiveTeamRequest,
  Job,
  Team,
  TeamChannel,
  TeamLabelStatus,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamMembershipPayload,
  TeamUpdate,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { type AcceptedJob, bodyOf, type Send } from './send';

/** Managing teams once they exist: settings, lifecycle, members, channels and tabs. */
export function teamOperations(send: Send) {
  const team = (teamId: string, rest = '') => apiPath(`/teams/{teamId}${rest}`, { teamId });
  const channel = (teamId: string, channelId: string, rest: string) =>
    apiPath(`/teams/{teamId}/channels/{channelId}${rest}`, { teamId, channelId });
  const accepted = async (operationId: string, path: string, body: unknown, options?: CallOptions) => {
    const answer = await send<Job>({ operationId, method: 'POST', path, body }, options);
    return { jobId: answer.body.id, location: answer.headers.location ?? '', job: answer.body };
  };

  return {
    /** Reads a team (`GET /teams/{teamId}`). */
    async getTeam(teamId: string, options?: CallOptions): Promise<Team> {
      return bodyOf(send, { operationId: 'getTeam', method: 'GET', path: team(teamId) }, options);
    },

    /**
     * Changes a team's name, description, visibility or settings (`PATCH /teams/{teamId}`, 204).
     * Retried like a PUT: it sets the fields it names, so sending it twice changes nothing more.
     */
    async updateTeam(teamId: string, changes: TeamUpdate, options?: CallOptions): Promise<void> {
      const path = team(teamId);
      await send(
        { operationId: 'updateTeam', method: 'PATCH', path, body: changes, idempotent: true },
        options,
      );
    },

    /** Deletes a team (`DELETE /teams/{teamId}`, 204). */
    async deleteTeam(teamId: string, options?: CallOptions): Promise<void> {
      await send({ operationId: 'deleteTeam', method: 'DELETE', path: team(teamId) }, options);
    },

    /** Archives a team (`POST /teams/{teamId}/archive`, 202): resolves to the queued job. Never retried. */
    async archiveTeam(
      teamId: string,
      request?: ArchiveTeamRequest,
      options?: CallOptions,
    ): Promise<AcceptedJob<Job>> {
      return accepted('archiveTeam', team(teamId, '/archive'), request, options);
    },

    /** Unarchives a team (`POST /teams/{teamId}/unarchive`, 202): resolves to the queued job. Never retried. */
    async unarchiveTeam(teamId: string, options?: CallOptions): Promise<AcceptedJob<Job>> {
      return accepted('unarchiveTeam', team(teamId, '/unarchive'), undefined, options);
    },

    /** Lists a team's members and owners (`GET /teams/{teamId}/members`). */
    async getTeamMembers(teamId: string, options?: CallOptions): Promise<TeamMember[]> {
      const path = team(teamId, '/members');
      return bodyOf(send, { operationId: 'getTeamMembers', method: 'GET', path }, options);
    },

    /** Adds a member or an owner (`POST /teams/{teamId}/members`, 201). Never retried. */
    async addTeamMember(
      teamId: string,
      membership: TeamMembershipPayload,
      options?: CallOptions,
    ): Promise<TeamMember> {
      const path = team(teamId, '/members');
      return bodyOf(send, { operationId: 'addTeamMember', method: 'POST', path, body: membership }, options);
    },

    /** Lists a team's channels (`GET /teams/{teamId}/channels`). */
    async getTeamChannels(teamId: string, options?: CallOptions): Promise<TeamChannel[]> {
      const path = team(teamId, '/channels');
      return bodyOf(send, { operationId: 'getTeamChannels', method: 'GET', path }, options);
    },

    /** Creates a channel (`POST /teams/{teamId}/channels`, 201). Never retried. */
    async createTeamChannel(
      teamId: string,
      payload: TeamChannelPayload,
      options?: CallOptions,
    ): Promise<TeamChannel> {
      const path = team(teamId, '/channels');
      return bodyOf(send, { operationId: 'createTeamChannel', method: 'POST', path, body: payload }, options);
    },

    /** Reads a team's General channel (`GET /teams/{teamId}/channels/primary`). */
    async getTeamPrimaryChannel(teamId: string, options?: CallOptions): Promise<TeamChannel> {
      const path = team(teamId, '/channels/primary');
      return bodyOf(send, { operationId: 'getTeamPrimaryChannel', method: 'GET', path }, options);
    },

    /** Lists a channel's tabs (`GET /teams/{teamId}/channels/{channelId}/tabs`). */
    async getTeamChannelTabs(
      teamId: string,
      channelId: string,
      options?: CallOptions,
    ): Promise<TeamChannelTab[]> {
      const path = channel(teamId, channelId, '/tabs');
      return bodyOf(send, { operationId: 'getTeamChannelTabs', method: 'GET', path }, options);
    },

    /** Adds a tab to a channel (`POST /teams/{teamId}/channels/{channelId}/tabs`, 201). Never retried. */
    async createTeamChannelTab(
      teamId: string,
      channelId: string,
      payload: TeamChannelTabPayload,
      options?: CallOptions,
    ): Promise<TeamChannelTab> {
      const path = channel(teamId, channelId, '/tabs');
      return bodyOf(
        send,
        { operationId: 'createTeamChannelTab', method: 'POST', path, body: payload },
        options,
      );
    },

    /**
     * Applies the team's template sensitivity label as the caller, an owner
     * (`POST /teams/{teamId}/sensitivityLabel`, an extension): 409 when no delegated token can be
     * had with their sign-in. Never retried.
     */
    async applyTeamSensitivityLabel(teamId: string, options?: CallOptions): Promise<TeamLabelStatus> {
      const path = apiPath('/teams/{teamId}/sensitivityLabel', { teamId });
      return bodyOf(send, { operationId: 'applyTeamSensitivityLabel', method: 'POST', path }, options);
    },
  };
}

/** The team operations of the client. */
export type TeamOperations = ReturnType<typeof teamOperations>;
