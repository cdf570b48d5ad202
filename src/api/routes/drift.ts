import { z } from 'zod';
import {
  Job,
  TeamDrift,
  TeamDriftApplyRequest,
  TemplateDriftApplyRequest,
  TemplateDriftApplyResult,
  TemplateDriftTeams,
  DriftOwnerAnswer,
  DriftOwnerAnswerResult,
} from '../../contract';
import type { DriftService } from '../../services/drift/drift';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';
import { TemplatePath } from './catalog';
import { TeamPath } from './lifecycle/lifecycle';

const DriftQuery = z.object({
  $top: z.coerce.number().int().min(1).max(50).default(20).describe('Teams per page (1–50).'),
  // The token is the last team id of the page before.
  $skiptoken: TeamPath.shape.teamId
    .optional()
    .describe('The token of the next page, from `@odata.nextLink`.'),
});
const tag = 'Drift';

/** Template drift: how teams stand against their template's current version, and bringing them in line. */
export function driftRoutes(drift: DriftService): Route[] {
  return [
    defineRoute({
      operationId: 'getTeamDrift',
      method: 'get',
      path: '/teams/{teamId}/drift',
      tag,
      summary: "List what the team's template now asks for that the team lacks or contradicts",
      description:
        "Compares the team with its template's current version: missing channels, tabs, permanent owners " +
        'and members, the label, and contradictions, each saying whether Steward can apply it. Parts the ' +
        "owners added are theirs and never listed. The team's owners, or governance managers.",
      params: TeamPath,
      responses: {
        200: { description: 'The differences.', schema: TeamDrift },
        404: { description: 'No such team, or not one made from a template.' },
      },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await drift.teamDrift(caller, params.teamId),
      }),
    }),
    defineRoute({
      operationId: 'applyTeamDrift',
      method: 'post',
      path: '/teams/{teamId}/drift/apply',
      tag,
      summary: "Bring a team in line with its template's current version",
      description:
        'Queues a job that adds what the template asks for (every difference Steward can apply, or those ' +
        'chosen by id); it removes nothing. 202 with `Location` pointing at the job.',
      params: TeamPath,
      body: TeamDriftApplyRequest,
      responses: {
        202: { description: 'The job was queued.', schema: Job, headers: { Location: 'The job’s URL.' } },
        409: {
          description:
            'Archived team, or other differences being applied already (`alreadyUnderWay`); the same ' +
            'request while its job is under way answers 202 with that job.',
        },
      },
      handle: async ({ caller, params, body, baseUrl, person }) => {
        const job = await drift.applyTeam(caller, params.teamId, body.differences, person);
        return { status: 202, body: job, headers: { Location: `${baseUrl}${API_BASE}/jobs/${job.id}` } };
      },
    }),
    defineRoute({
      operationId: 'answerTeamDrift',
      method: 'post',
      path: '/teams/{teamId}/drift/answer',
      tag,
      summary: "An owner's answer when asked whether to add what the template now has",
      description:
        '`add` queues the job that applies the differences; `notNow` is recorded. The team’s owners.',
      params: TeamPath,
      body: DriftOwnerAnswer,
      responses: {
        200: { description: 'The answer, and the job it queued.', schema: DriftOwnerAnswerResult },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: { answer: body.answer, job: (await drift.answer(caller, params.teamId, body.answer)) ?? null },
      }),
    }),
    defineRoute({
      operationId: 'getTemplateDrift',
      method: 'get',
      path: '/catalog/templates/{template_id}/drift',
      tag,
      summary: "List the teams made from a template, each compared with the template's current version",
      description:
        'A page of the teams made from the template, compared now, with their differences in all, those ' +
        'Steward can apply, and per kind (0: in line). `@odata.count` is the number of teams made from it.',
      params: TemplatePath,
      query: DriftQuery,
      responses: { 200: { description: 'A page of teams.', schema: TemplateDriftTeams } },
      handle: async ({ params, query, baseUrl }) => {
        const page = await drift.templateDrift(params.template_id, {
          top: query.$top,
          after: query.$skiptoken,
        });
        const path = `/catalog/templates/${encodeURIComponent(params.template_id)}/drift`;
        const next = page.last
          ? `${baseUrl}${API_BASE}${path}?$top=${query.$top}&$skiptoken=${encodeURIComponent(page.last)}`
          : undefined;
        return {
          status: 200,
          body: odataCollection(baseUrl, 'templateDriftTeams', page.teams, {
            count: page.total,
            nextLink: next,
          }),
        };
      },
    }),
    defineRoute({
      operationId: 'applyTemplateDrift',
      method: 'post',
      path: '/catalog/templates/{template_id}/drift/apply',
      tag,
      summary: 'Bring every drifting team of a template in line with its current version',
      description:
        '`dryRun`: each team compared now, what would be applied, no job. Otherwise one job per drifting ' +
        'team (made from an older version, or found drifting by its last comparison), paced by the Graph ' +
        "budget; when the template asks its owners first, each team's owners get a card instead.",
      params: TemplatePath,
      body: TemplateDriftApplyRequest,
      responses: {
        200: { description: 'The preview (dry run).', schema: TemplateDriftApplyResult },
        202: { description: 'The jobs were queued, or the owners asked.', schema: TemplateDriftApplyResult },
      },
      handle: async ({ caller, params, body, person }) => {
        const result = await drift.applyTemplate(caller, params.template_id, body.dryRun, person);
        return { status: body.dryRun ? 200 : 202, body: result };
      },
    }),
  ];
}
