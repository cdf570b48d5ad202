import type { GovernanceManagers, GuestReview, GuestReviewInput, OwnershipStepUp } from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/**
 * What people answer to the lifecycle's cards (extensions): a member steps up as owner of a team
 * short of owners, an owner reviews the team's guests; and who the governance managers are, for
 * the cards about teams nobody owns.
 */
export function lifecycleResponseOperations(send: Send) {
  const teamPath = (teamId: string, rest: string) => apiPath(`/teams/{teamId}/lifecycle${rest}`, { teamId });
  return {
    /** The caller becomes an owner (`POST /teams/{teamId}/lifecycle/ownership`, 202). Never retried. */
    async stepUpAsTeamOwner(teamId: string, options?: CallOptions): Promise<OwnershipStepUp> {
      return bodyOf(
        send,
        { operationId: 'stepUpAsTeamOwner', method: 'POST', path: teamPath(teamId, '/ownership') },
        options,
      );
    },

    /** An owner's guest review (`POST /teams/{teamId}/lifecycle/guestReview`): who is removed. Never retried. */
    async reviewTeamGuests(
      teamId: string,
      review: GuestReviewInput,
      options?: CallOptions,
    ): Promise<GuestReview> {
      return bodyOf(
        send,
        {
          operationId: 'reviewTeamGuests',
          method: 'POST',
          path: teamPath(teamId, '/guestReview'),
          body: review,
        },
        options,
      );
    },

    /** Who is told about teams nobody owns, each with their governance roles, or why nobody could be listed (`GET /lifecycle/governanceManagers`). */
    async getGovernanceManagers(options?: CallOptions): Promise<GovernanceManagers> {
      return bodyOf(
        send,
        { operationId: 'getGovernanceManagers', method: 'GET', path: '/lifecycle/governanceManagers' },
        options,
      );
    },
  };
}

/** The lifecycle response operations of the client. */
export type LifecycleResponseOperations = ReturnType<typeof lifecycleResponseOperations>;
