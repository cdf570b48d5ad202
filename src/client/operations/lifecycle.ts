import type {
  Job,
  LifecyclePolicy,
  LifecyclePolicyInput,
  LifecyclePreview,
  LifecycleActivity,
  LifecycleNotice,
  LifecycleRenewal,
  NotRightPersonAnswer,
  TeamLifecycle,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { type AcceptedJob, bodyOf, type Send } from './send';

/**
 * Lifecycle governance (extensions): the tenant policy, a team's lifecycle and its renewal, the
 * preview of an evaluation and evaluations on request. The bot's renewal and inactivity cards
 * answer through here.
 */
export function lifecycleOperations(send: Send) {
  const teamPath = (teamId: string, rest = '') => apiPath(`/teams/{teamId}/lifecycle${rest}`, { teamId });
  return {
    /** The tenant's default policy (`GET /lifecycle/policy`). */
    async getLifecyclePolicy(options?: CallOptions): Promise<LifecyclePolicy> {
      return bodyOf(
        send,
        { operationId: 'getLifecyclePolicy', method: 'GET', path: '/lifecycle/policy' },
        options,
      );
    },

    /** Replaces the tenant's default policy (`PUT /lifecycle/policy`); retried like any PUT. */
    async setLifecyclePolicy(policy: LifecyclePolicyInput, options?: CallOptions): Promise<LifecyclePolicy> {
      return bodyOf(
        send,
        {
          operationId: 'setLifecyclePolicy',
          method: 'PUT',
          path: '/lifecycle/policy',
          body: policy,
          idempotent: true,
        },
        options,
      );
    },

    /** A team's policy, state and pending actions (`GET /teams/{teamId}/lifecycle`). */
    async getTeamLifecycle(teamId: string, options?: CallOptions): Promise<TeamLifecycle> {
      return bodyOf(
        send,
        { operationId: 'getTeamLifecycle', method: 'GET', path: teamPath(teamId) },
        options,
      );
    },

    /** Renews a team (`POST /teams/{teamId}/lifecycle/renew`): its new `expiresOn`. Never retried. */
    async renewTeamLifecycle(teamId: string, options?: CallOptions): Promise<LifecycleRenewal> {
      return bodyOf(
        send,
        { operationId: 'renewTeamLifecycle', method: 'POST', path: teamPath(teamId, '/renew') },
        options,
      );
    },

    /** Records that a team is in use, active today (`POST /teams/{teamId}/lifecycle/activity`). Never retried. */
    async recordTeamActivity(teamId: string, options?: CallOptions): Promise<LifecycleActivity> {
      return bodyOf(
        send,
        { operationId: 'recordTeamActivity', method: 'POST', path: teamPath(teamId, '/activity') },
        options,
      );
    },

    /** Records that the caller is not the owner to answer `notice` (`POST /teams/{teamId}/lifecycle/notRightPerson`). */
    async reportNotRightPerson(
      teamId: string,
      notice: LifecycleNotice,
      options?: CallOptions,
    ): Promise<NotRightPersonAnswer> {
      return bodyOf(
        send,
        {
          operationId: 'reportNotRightPerson',
          method: 'POST',
          path: teamPath(teamId, '/notRightPerson'),
          body: { notice },
        },
        options,
      );
    },

    /** What an evaluation on `asOf` (YYYY-MM-DD) would do (`GET /lifecycle/preview`). */
    async previewLifecycle(
      asOf: string,
      query: { top?: number } = {},
      options?: CallOptions,
    ): Promise<LifecyclePreview> {
      const path = apiPath('/lifecycle/preview', undefined, { asOf, $top: query.top });
      return bodyOf(send, { operationId: 'previewLifecycle', method: 'GET', path }, options);
    },

    /** Runs an evaluation now (`POST /lifecycle/evaluations`, 202): resolves to the queued job. Never retried. */
    async createLifecycleEvaluation(options?: CallOptions): Promise<AcceptedJob<Job>> {
      const answer = await send<Job>(
        { operationId: 'createLifecycleEvaluation', method: 'POST', path: '/lifecycle/evaluations' },
        options,
      );
      return { jobId: answer.body.id, location: answer.headers.location ?? '', job: answer.body };
    },
  };
}

/** The lifecycle operations of the client. */
export type LifecycleOperations = ReturnType<typeof lifecycleOperations>;
