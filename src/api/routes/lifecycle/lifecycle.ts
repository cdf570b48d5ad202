import { z } from 'zod';
import { isCalendarDate } from '../../../domain/lifecycle/dates';
import {
  Job,
  LifecycleActivity,
  LifecyclePolicy,
  LifecyclePreview,
  LifecycleRenewal,
  NotRightPersonAnswer,
  NotRightPersonRequest,
  TeamLifecycle,
} from '../../../contract';
import type { LifecycleEvaluations } from '../../../services/lifecycle/evaluations';
import type { LifecycleOwnerAnswers } from '../../../services/lifecycle/ownerAnswers';
import type { LifecycleService } from '../../../services/lifecycle/service';
import { API_BASE, defineRoute, type Route } from '../../route';

/** A team id in a lifecycle path. */
export const TeamPath = z.object({
  teamId: z
    .string()
    .regex(/^[A-Za-z0-9:@._=-]{1,200}$/, 'Not a team id.')
    .describe('The team id.'),
});
const PreviewQuery = z.strictObject({
  asOf: z
    .string()
    .refine(isCalendarDate, 'Expected a date as YYYY-MM-DD.')
    .describe('The day (YYYY-MM-DD) the evaluation would run on.'),
  $top: z.coerce
    .number()
    .int()
    .min(1)
    .max(5000)
    .default(1000)
    .describe('The most actions listed (1–5000); `@odata.count` counts them all.'),
});
const tag = 'Lifecycle';

/**
 * Lifecycle governance (extensions): the tenant policy, a team's lifecycle, its renewal and its
 * owners' other answers to a notice, the preview, evaluations.
 */
export function lifecycleRoutes(
  lifecycle: LifecycleService,
  evaluations: LifecycleEvaluations,
  answers: LifecycleOwnerAnswers,
): Route[] {
  return [
    defineRoute({
      operationId: 'getLifecyclePolicy',
      method: 'get',
      path: '/lifecycle/policy',
      tag,
      summary: "Get the tenant's default lifecycle policy",
      description: 'The policy of every team no template governs (a template with `lifecycle` has its own).',
      responses: { 200: { description: 'The policy.', schema: LifecyclePolicy } },
      handle: async () => ({ status: 200, body: await lifecycle.policy() }),
    }),
    defineRoute({
      operationId: 'setLifecyclePolicy',
      method: 'put',
      path: '/lifecycle/policy',
      tag,
      summary: "Replace the tenant's default lifecycle policy",
      body: LifecyclePolicy,
      responses: { 200: { description: 'The policy as stored.', schema: LifecyclePolicy } },
      handle: async ({ caller, body }) => ({ status: 200, body: await lifecycle.setPolicy(caller, body) }),
    }),
    defineRoute({
      operationId: 'getTeamLifecycle',
      method: 'get',
      path: '/teams/{teamId}/lifecycle',
      tag,
      summary: "Get a team's lifecycle: its policy, state and pending actions",
      params: TeamPath,
      responses: { 200: { description: "The team's lifecycle.", schema: TeamLifecycle } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await lifecycle.team(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'renewTeamLifecycle',
      method: 'post',
      path: '/teams/{teamId}/lifecycle/renew',
      tag,
      summary: 'Renew a team: it expires the policy’s days from today',
      params: TeamPath,
      responses: {
        200: { description: 'Renewed.', schema: LifecycleRenewal },
        409: { description: 'The team is archived, or its policy does not expire teams.' },
      },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await lifecycle.renew(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'recordTeamActivity',
      method: 'post',
      path: '/teams/{teamId}/lifecycle/activity',
      tag,
      summary: 'Record that a team is in use: it counts as active today',
      description:
        'An owner\'s "Keep it" on an inactivity notice: the next evaluation sees the team active from today, whatever the activity report says. Audited in the `lifecycle` trail.',
      params: TeamPath,
      responses: {
        200: { description: 'Recorded.', schema: LifecycleActivity },
        409: { description: 'The team is archived.' },
      },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await answers.keep(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'reportNotRightPerson',
      method: 'post',
      path: '/teams/{teamId}/lifecycle/notRightPerson',
      tag,
      summary: 'Record that an owner is not the right person to answer a lifecycle notice',
      description:
        'An owner\'s "I\'m not the right person" on a renewal or inactivity notice, recorded in the `lifecycle` trail for governance managers; the other owners can still answer.',
      params: TeamPath,
      body: NotRightPersonRequest.optional(),
      responses: { 200: { description: 'Recorded.', schema: NotRightPersonAnswer } },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await answers.notRightPerson(caller, params.teamId, body?.notice ?? 'renewal'),
      }),
    }),
    defineRoute({
      operationId: 'previewLifecycle',
      method: 'get',
      path: '/lifecycle/preview',
      tag,
      summary: 'What the lifecycle evaluator would do on a day, writing nothing',
      query: PreviewQuery,
      responses: { 200: { description: 'The actions, team by team.', schema: LifecyclePreview } },
      handle: async ({ query }) => ({ status: 200, body: await lifecycle.preview(query.asOf, query.$top) }),
    }),
    defineRoute({
      operationId: 'createLifecycleEvaluation',
      method: 'post',
      path: '/lifecycle/evaluations',
      tag,
      summary: 'Run a lifecycle evaluation now',
      description: 'Asynchronous: 202 with the LifecycleEvaluation job (`Location` points at it).',
      responses: {
        202: {
          description: 'The evaluation was queued.',
          schema: Job,
          headers: { Location: 'The job’s URL.' },
        },
      },
      handle: async ({ caller, baseUrl }) => {
        const job = await evaluations.queue(caller);
        return { status: 202, body: job, headers: { Location: `${baseUrl}${API_BASE}/jobs/${job.id}` } };
      },
    }),
  ];
}
