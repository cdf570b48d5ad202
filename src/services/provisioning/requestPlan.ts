import type { Caller } from '../../domain/caller';
import { documentProblems, type JsonObject } from '../../domain/metadata';
import { type ErrorDetail, ValidationFailed } from '../../domain/errors';
import { applyConventions, membershipRoles } from '../../domain/requestPlanning';
import type { CatalogTemplate, TeamProvisioningRequest } from '../../contract';
import { type PlannedApproval, planApproval } from '../approvals/approvalPlanning';
import { withStages } from '../approvals/approvalStages';
import type { DirectoryService, RuleSubject } from '../directory/directory';
import { conventionScope, type ProvisioningData } from '../jobData/provisioningData';
import { recordedTranslations } from '../jobData/templateName';
import { workspacePlan } from '../workspace/teamTools';

/**
 * Everything about a request that can be refused (400): conventions applied, people resolved,
 * minimum owners and members, every approval stage resolved to someone other than the requester;
 * and, when it holds, the job's data and first log lines.
 */
export async function planRequest(
  directory: DirectoryService,
  caller: Caller,
  body: TeamProvisioningRequest,
  template: CatalogTemplate,
  jobId: string,
): Promise<{ data: ProvisioningData; log: string[] }> {
  const config = template.templateConfiguration;
  const details: ErrorDetail[] = [];
  const subject = await directory.ruleSubject(caller);
  const requester = {
    id: caller.id,
    displayName: subject.user.displayName || caller.name || caller.id,
    mail: subject.user.mail ?? caller.upn ?? null,
  };
  const names = applyConventions(
    template,
    conventionScope(body, template, requester, subject.user),
    jobId.slice(0, 6),
    details,
  );
  const [owners, members] = await Promise.all([
    settle(directory.resolveMembers(body.team.membership.owners, 'team.membership.owners'), details),
    settle(directory.resolveMembers(body.team.membership.members, 'team.membership.members'), details),
  ]);
  const roles = membershipRoles({
    requesterId: caller.id,
    requesterAsOwner: template.newTeam.addRequesterAsTeamOwner,
    owners: owners.map((m) => m.id),
    members: members.map((m) => m.id),
    permanentOwners: config.permanentMembership.owners.map((m) => m.id),
    permanentMembers: config.permanentMembership.members.map((m) => m.id),
  });
  const peopleNames = new Map<string, string | undefined>(
    [...owners, ...members, ...config.permanentMembership.owners, ...config.permanentMembership.members].map(
      (person) => [person.id, person.name],
    ),
  );
  peopleNames.set(caller.id, requester.displayName);
  const count = (role: string) => [...roles.values()].filter((r) => r === role).length;
  if (count('owner') < config.minimumOwners) {
    details.push({
      code: 'tooFewOwners',
      target: 'team.membership.owners',
      message: `This template needs at least ${config.minimumOwners} owners; the request has ${count('owner')}.`,
    });
  }
  if (count('member') < config.minimumMembers) {
    details.push({
      code: 'tooFewMembers',
      target: 'team.membership.members',
      message: `This template needs at least ${config.minimumMembers} members; the request has ${count('member')}.`,
    });
  }
  const approval = await requestApproval(
    directory,
    { template, body, user: subject.user, names, requester: { ...requester, id: caller.id } },
    details,
  );
  // The metadata is stored as the team's document at the end of the job: refuse now what could not be stored then.
  if (body.metadata) details.push(...documentProblems(body.metadata as JsonObject, 'metadata'));
  if (details.length > 0) throw new ValidationFailed('The request is not valid.', details);

  const data: ProvisioningData = {
    request: body,
    template: {
      id: config.id ?? body.template.id,
      name: config.name,
      ...recordedTranslations(config),
      approvers: config.approval.approvalTeam,
      permanentMembership: config.permanentMembership,
    },
    requester,
    plan: {
      displayName: names.name,
      description: names.description,
      welcomeMessage: names.welcomeMessage,
      mailNickname: names.mailNickname,
      visibility: template.newTeam.teamPrivacy,
      sensitivityLabelId: config.sensitivityLabelId,
      // With their names, so cards and reports show people, not ids.
      members: [...roles].map(([id, role]) => ({ id, role, displayName: peopleNames.get(id) ?? null })),
      clone: template.clonedTeam,
      channels: template.newTeam.channels,
      tabs: template.newTeam.tabs,
      ...(template.newTeam.settings ? { settings: template.newTeam.settings } : {}),
      ...workspacePlan(template.newTeam),
    },
    ...(approval
      ? {
          approval: withStages(
            {
              id: '',
              status: 'pending',
              approvers: [],
              allowSelfApproval: approval.allowSelfApproval,
              timers: approval.timers,
              ...(approval.escalationTeam ? { escalationTeam: approval.escalationTeam } : {}),
            },
            approval.stages,
          ),
        }
      : {}),
  };
  const log = [`Requested "${names.name}" from template "${config.name}" by ${requester.displayName}.`];
  if (approval) {
    const first = approval.stages[0]!;
    const who = first.approvers.map((a) => a.name ?? a.id).join(', ');
    log.push(
      approval.stages.length > 1
        ? `Waiting for approval ${first.id} (stage 1 of ${approval.stages.length}: ${first.name}) by ${who}.`
        : `Waiting for approval ${first.id} by ${who}.`,
    );
  }
  return { data, log };
}

/**
 * The approval a request gets: every stage of its template's policy resolved to people now, with
 * the request's final texts and the requester as rules see them (`planApproval`).
 */
export function requestApproval(
  directory: DirectoryService,
  request: {
    template: CatalogTemplate;
    body: TeamProvisioningRequest;
    user: RuleSubject['user'];
    names: { name: string; description: string; welcomeMessage: string };
    requester: { id: string; displayName: string; mail: string | null };
  },
  details: ErrorDetail[],
): Promise<PlannedApproval | undefined> {
  const { template, body, names, requester } = request;
  const config = template.templateConfiguration;
  return planApproval(
    directory,
    config.approval,
    requester.id,
    {
      user: request.user,
      request: {
        team: { name: names.name, description: names.description, welcomeMessage: names.welcomeMessage },
        template: { id: config.id ?? body.template.id, name: config.name },
        requester: { id: requester.id, name: requester.displayName, email: requester.mail ?? '' },
      },
    },
    details,
  );
}

async function settle<T>(promise: Promise<T[]>, details: ErrorDetail[]): Promise<T[]> {
  try {
    return await promise;
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    details.push(...error.details);
    return [];
  }
}
