import { GovernanceManagers, GuestReview, GuestReviewInput, OwnershipStepUp } from '../../../contract';
import type { GovernanceManagerLookup } from '../../../services/access/governanceManagers';
import type { LifecycleResponses } from '../../../services/lifecycle/responses';
import { API_BASE, defineRoute, type Route } from '../../route';
import { TeamPath } from './lifecycle';

const tag = 'Lifecycle';

/** What people answer to the lifecycle's cards (extensions): stepping up as owner, guest reviews. */
export function lifecycleResponseRoutes(
  responses: LifecycleResponses,
  governanceManagers: GovernanceManagerLookup,
): Route[] {
  return [
    defineRoute({
      operationId: 'stepUpAsTeamOwner',
      method: 'post',
      path: '/teams/{teamId}/lifecycle/ownership',
      tag,
      summary: 'Become an owner of a team short of owners',
      description:
        'A member of the team steps up; a job makes them an owner. The first member to accept since the team was found short of owners becomes its owner; the others get 409, naming who did.',
      params: TeamPath,
      responses: {
        202: {
          description: 'Accepted: the job that makes the caller an owner was queued.',
          schema: OwnershipStepUp,
          headers: { Location: 'The job’s URL.' },
        },
        403: { description: 'Guests cannot own a team.' },
        409: {
          description:
            'Someone already stepped up, the caller is an owner already, the team has the owners its policy asks for, or it is archived.',
        },
      },
      handle: async ({ caller, params, baseUrl }) => {
        const stepUp = await responses.stepUp(caller, params.teamId);
        return {
          status: 202,
          body: stepUp,
          headers: { Location: `${baseUrl}${API_BASE}/jobs/${stepUp.jobId}` },
        };
      },
    }),
    defineRoute({
      operationId: 'reviewTeamGuests',
      method: 'post',
      path: '/teams/{teamId}/lifecycle/guestReview',
      tag,
      summary: "Review a team's guests: remove some, keep the others",
      description:
        'Records the review (the next one is due the policy’s `everyDays` after today) and queues a job that removes the guests listed in `remove`. The same review again on the same day (the same guests in `remove`, from any owner) answers with the review recorded first and records nothing.',
      params: TeamPath,
      body: GuestReviewInput,
      responses: {
        200: { description: 'The review as recorded.', schema: GuestReview },
        409: { description: 'The team is archived.' },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await responses.reviewGuests(caller, params.teamId, body),
      }),
    }),
    defineRoute({
      operationId: 'getGovernanceManagers',
      method: 'get',
      path: '/lifecycle/governanceManagers',
      tag,
      summary: 'List the governance managers, who are told about teams nobody owns',
      description:
        'The people of `STEWARD_GOVERNANCE_MANAGERS` when it is set; otherwise who holds GOVERNANCE_MANAGER, TEAMS_SERVICE_ADMIN or GLOBAL_ADMIN: in the embedded directory, or, with Microsoft Graph, in the app-role assignments of Steward’s app registration (users, and the users of assigned groups, nested groups included). When the directory refuses or fails, the answer is still 200, with `listed: false` and the reason.',
      responses: { 200: { description: 'The governance managers.', schema: GovernanceManagers } },
      handle: async () => ({ status: 200, body: await governanceManagers.list() }),
    }),
  ];
}
