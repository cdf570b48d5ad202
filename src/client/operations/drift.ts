import type {
  DriftOwnerAnswer,
  DriftOwnerAnswerResult,
  Job,
  TeamDrift,
  TeamDriftApplyRequest,
  TemplateDriftApplyRequest,
  TemplateDriftApplyResult,
  TemplateDriftTeams,
  TemplateVersions,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Template versions and drift (extensions): how teams stand against their template, and bringing them in line. */
export function driftOperations(send: Send) {
  const templatePath = (id: string, rest: string, query?: Record<string, number | undefined>) =>
    apiPath(`/catalog/templates/{template_id}${rest}`, { template_id: id }, query);
  const teamPath = (teamId: string, rest: string) => apiPath(`/teams/{teamId}${rest}`, { teamId });
  return {
    /** A template's versions, newest first (`GET /catalog/templates/{template_id}/versions`). */
    async getTemplateVersions(
      templateId: string,
      page: { top?: number; skip?: number } = {},
      options?: CallOptions,
    ): Promise<TemplateVersions> {
      return bodyOf(
        send,
        {
          operationId: 'getTemplateVersions',
          method: 'GET',
          path: templatePath(templateId, '/versions', { $top: page.top, $skip: page.skip }),
        },
        options,
      );
    },

    /** A team's differences from its template (`GET /teams/{teamId}/drift`). */
    async getTeamDrift(teamId: string, options?: CallOptions): Promise<TeamDrift> {
      return bodyOf(
        send,
        { operationId: 'getTeamDrift', method: 'GET', path: teamPath(teamId, '/drift') },
        options,
      );
    },

    /** Queues the job that brings a team in line (`POST /teams/{teamId}/drift/apply`, 202). Never retried. */
    async applyTeamDrift(
      teamId: string,
      body: TeamDriftApplyRequest = {},
      options?: CallOptions,
    ): Promise<Job> {
      return bodyOf(
        send,
        { operationId: 'applyTeamDrift', method: 'POST', path: teamPath(teamId, '/drift/apply'), body },
        options,
      );
    },

    /** An owner's answer to the card (`POST /teams/{teamId}/drift/answer`). Never retried. */
    async answerTeamDrift(
      teamId: string,
      body: DriftOwnerAnswer,
      options?: CallOptions,
    ): Promise<DriftOwnerAnswerResult> {
      return bodyOf(
        send,
        { operationId: 'answerTeamDrift', method: 'POST', path: teamPath(teamId, '/drift/answer'), body },
        options,
      );
    },

    /** A page of a template's teams compared with it (`GET /catalog/templates/{template_id}/drift`). */
    async getTemplateDrift(
      templateId: string,
      page: { top?: number } = {},
      options?: CallOptions,
    ): Promise<TemplateDriftTeams> {
      return bodyOf(
        send,
        {
          operationId: 'getTemplateDrift',
          method: 'GET',
          path: templatePath(templateId, '/drift', { $top: page.top }),
        },
        options,
      );
    },

    /** Brings a template's drifting teams in line, or previews it (`POST /catalog/templates/{template_id}/drift/apply`). */
    async applyTemplateDrift(
      templateId: string,
      body: TemplateDriftApplyRequest = {},
      options?: CallOptions,
    ): Promise<TemplateDriftApplyResult> {
      return bodyOf(
        send,
        {
          operationId: 'applyTemplateDrift',
          method: 'POST',
          path: templatePath(templateId, '/drift/apply'),
          body,
        },
        options,
      );
    },
  };
}

/** The drift operations of the client. */
export type DriftOperations = ReturnType<typeof driftOperations>;
