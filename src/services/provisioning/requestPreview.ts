import type { Caller } from '../../domain/caller';
import type { ErrorDetail } from '../../domain/errors';
import { applyConventions } from '../../domain/requestPlanning';
import { TEAM_NAME_MAX_LENGTH } from '../../domain/teamName';
import { notProvisionable } from '../../domain/workspaceTypes';
import type { TeamProvisioningRequest, TeamRequestPreview } from '../../contract';
import type { CatalogService } from '../catalog/catalog';
import type { DirectoryService } from '../directory/directory';
import { conventionScope } from '../jobData/provisioningData';
import { requestApproval } from './requestPlan';

/**
 * What a request would become, computed exactly as `POST /teams/provisioning` computes it (the
 * template's conventions on the caller's directory attributes, the team-name rules), without
 * making it: request forms show the final name and its problems before anything is sent.
 */
export async function previewRequest(
  deps: { catalog: CatalogService; directory: DirectoryService },
  caller: Caller,
  body: TeamProvisioningRequest,
): Promise<TeamRequestPreview> {
  const template = await deps.catalog.get(body.template.id, caller);
  const subject = await deps.directory.ruleSubject(caller);
  const requester = {
    displayName: subject.user.displayName || caller.name || caller.id,
    mail: subject.user.mail ?? caller.upn ?? null,
  };
  // A template of a type Steward cannot provision yet: the request would be refused, say so first.
  const refusal = notProvisionable(template);
  const details: ErrorDetail[] = refusal ? [refusal] : [];
  const names = applyConventions(
    template,
    conventionScope(body, template, requester, subject.user),
    '',
    details,
  );
  // The convention's additions around the typed name: what they take of the limit.
  const bare = { ...body, team: { ...body.team, name: '' } };
  const added = applyConventions(template, conventionScope(bare, template, requester, subject.user), '', []);
  // Who would decide, as the request itself resolves them; the preview stands without them.
  const approval = await requestApproval(
    deps.directory,
    { template, body, user: subject.user, names, requester: { ...requester, id: caller.id } },
    [],
  ).catch(() => undefined);
  return {
    displayName: names.name,
    description: names.description,
    nameMaxLength: Math.max(1, TEAM_NAME_MAX_LENGTH - Array.from(added.name).length),
    problems: details.map((detail) => detail.message),
    ...(approval && {
      approval: {
        stages: approval.stages.map((stage) => ({
          name: stage.name,
          decision: stage.decision,
          approvers: stage.approvers.map((person) => ({
            id: person.id,
            ...(person.name ? { name: person.name } : {}),
          })),
        })),
      },
    }),
  };
}
