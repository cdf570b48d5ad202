import { type ErrorDetail, ValidationFailed } from '../../domain/errors';
import { lifecyclePolicyProblems } from '../../domain/lifecycle/policy';
import { compileConvention, compileRule, RuleSyntaxError } from '../../domain/rules';
import {
  type ApprovalPolicy,
  type CatalogTemplate,
  type PermanentMember,
  templateItemProblems,
} from '../../contract';
import type { DirectoryService } from '../directory/directory';
import { workspaceProblems } from './teamToolsValidation';
import { withWorkspaceSection, workspaceTypeProblems } from './workspaceTypeValidation';
import { channelKey } from '../../domain/channelNames';

const CONVENTIONS = [
  'namingConvention',
  'emailConvention',
  'descriptionConvention',
  'welcomeMessageConvention',
] as const;

/**
 * Every semantic check of a template (the shape was checked by its schema already): its id, rules
 * and conventions parse, approvers exist, tabs name its channels, its label is active, its people
 * resolve. Returns the template to store, its people resolved; all problems at once otherwise.
 */
export async function validateTemplate(
  id: string,
  input: CatalogTemplate,
  directory: DirectoryService,
): Promise<CatalogTemplate> {
  const config = input.templateConfiguration;
  const details: ErrorDetail[] = [];
  if (config.id !== undefined && config.id !== id) {
    details.push({
      code: 'idMismatch',
      target: 'templateConfiguration.id',
      message: `The body's id "${config.id}" differs from the path's "${id}".`,
    });
  }
  const targeting = config.audienceTargeting;
  if (targeting.enabled && targeting.rules.trim() === '') {
    details.push({
      code: 'required',
      target: 'templateConfiguration.audienceTargeting.rules',
      message: 'Audience targeting is enabled but has no rule.',
    });
  } else if (targeting.rules.trim() !== '') {
    syntaxCheck(() => compileRule(targeting.rules), 'templateConfiguration.audienceTargeting.rules', details);
  }
  for (const name of CONVENTIONS) {
    const convention = input.newTeam[name];
    if (convention) syntaxCheck(() => compileConvention(convention), `newTeam.${name}`, details);
  }
  const staged = config.approval.stages !== undefined;
  if (config.approval.requireApproval && !staged && config.approval.approvalTeam.length === 0) {
    details.push({
      code: 'required',
      target: 'templateConfiguration.approval.approvalTeam',
      message: 'A template that requires approval needs at least one approver.',
    });
  }
  details.push(...stageProblems(config.approval));
  details.push(...escalationProblems(config.approval, directory.listsRoleHolders));
  if (config.lifecycle)
    details.push(...lifecyclePolicyProblems(config.lifecycle, 'templateConfiguration.lifecycle'));
  details.push(...channelNameProblems(input.newTeam.channels));
  const channels = new Set(['general', ...input.newTeam.channels.map((c) => channelKey(c.displayName))]);
  input.newTeam.tabs.forEach((tab, index) => {
    if (!channels.has(channelKey(tab.channel))) {
      details.push({
        code: 'unknownChannel',
        target: `newTeam.tabs[${index}].channel`,
        message: `The tab's channel "${tab.channel}" is neither General nor one of the template's channels.`,
      });
    }
  });
  if (input.newTeam.settings?.discoverySettings && input.newTeam.teamPrivacy !== 'private') {
    details.push({
      code: 'discoveryOfPublicTeam',
      target: 'newTeam.settings.discoverySettings',
      message:
        'Only a private team can be hidden from search and suggestions: a public team is always found (Microsoft Graph: "You can only modify discovery settings for private teams").',
    });
  }
  for (const problem of templateItemProblems(input.newTeam))
    details.push({ code: 'invalidFiles', ...problem });
  details.push(...workspaceProblems(input.newTeam));
  details.push(...workspaceTypeProblems(input));
  if (config.sensitivityLabelId !== null) {
    const labels = await directory.allLabels();
    if (!labels.some((l) => l.id === config.sensitivityLabelId && l.isActive)) {
      details.push({
        code: 'unknownLabel',
        target: 'templateConfiguration.sensitivityLabelId',
        message: `No active sensitivity label "${config.sensitivityLabelId}".`,
      });
    }
  }
  const stagePeople = (config.approval.stages ?? []).map((stage, index) =>
    stage.approvers.kind === 'people'
      ? directory.resolveMembers(
          stage.approvers.people,
          `templateConfiguration.approval.stages[${index}].approvers.people`,
        )
      : Promise.resolve(undefined),
  );
  const escalation = config.approval.escalationTeam
    ? directory.resolveMembers(
        config.approval.escalationTeam,
        'templateConfiguration.approval.escalationTeam',
      )
    : Promise.resolve(undefined);
  const people = await Promise.allSettled([
    directory.resolveMembers(config.approval.approvalTeam, 'templateConfiguration.approval.approvalTeam'),
    directory.resolveMembers(
      config.permanentMembership.owners,
      'templateConfiguration.permanentMembership.owners',
    ),
    directory.resolveMembers(
      config.permanentMembership.members,
      'templateConfiguration.permanentMembership.members',
    ),
  ]);
  const policyPeople = await Promise.allSettled([escalation, ...stagePeople]);
  for (const result of [...people, ...policyPeople]) {
    if (result.status === 'rejected') {
      if (!(result.reason instanceof ValidationFailed)) throw result.reason;
      details.push(...result.reason.details);
    }
  }
  if (details.length > 0) throw new ValidationFailed('The template is not valid.', details);
  const [approvalTeam, owners, members] = people.map(
    (r) => (r as PromiseFulfilledResult<PermanentMember[]>).value,
  );
  const [escalationTeam, ...stageTeams] = policyPeople.map(
    (r) => (r as PromiseFulfilledResult<PermanentMember[] | undefined>).value,
  );
  const stages = config.approval.stages?.map((stage, index) =>
    stage.approvers.kind === 'people'
      ? { ...stage, approvers: { kind: 'people' as const, people: stageTeams[index]! } }
      : stage,
  );
  return {
    ...withWorkspaceSection(input),
    templateConfiguration: {
      id, // first, for readers of the JSON; the body's id (if any) equals it
      ...config,
      approval: {
        ...config.approval,
        approvalTeam: approvalTeam!,
        ...(stages ? { stages } : {}),
        ...(escalationTeam ? { escalationTeam } : {}),
      },
      permanentMembership: { owners: owners!, members: members! },
    },
  };
}

/** What makes an approval policy unable to work: rules that do not parse, stages without people, duplicate names. */
/**
 * Two channels whose names differ only in case: Teams holds one channel of a name whatever its
 * case, so the second would be refused, or found as the first (a private channel's files landing
 * in a standard one). Each such channel after the first is named.
 */
function channelNameProblems(channels: CatalogTemplate['newTeam']['channels']): ErrorDetail[] {
  const first = new Map<string, string>();
  const details: ErrorDetail[] = [];
  channels.forEach((channel, index) => {
    const key = channelKey(channel.displayName);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, channel.displayName);
      return;
    }
    details.push({
      code: 'duplicate',
      target: `newTeam.channels[${index}].displayName`,
      message: `The channel "${channel.displayName}" has the name of "${earlier}": Teams compares channel names regardless of case, so each channel needs a name of its own.`,
    });
  });
  return details;
}

function stageProblems(approval: ApprovalPolicy): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const names = new Set<string>();
  (approval.stages ?? []).forEach((stage, index) => {
    const target = `templateConfiguration.approval.stages[${index}]`;
    const key = stage.name.toLowerCase();
    if (names.has(key)) {
      details.push({
        code: 'duplicateStage',
        target: `${target}.name`,
        message: `Two approval stages are named "${stage.name}": each stage needs its own name.`,
      });
    }
    names.add(key);
    const approvers = stage.approvers;
    if (approvers.kind === 'rule')
      syntaxCheck(() => compileRule(approvers.rule), `${target}.approvers.rule`, details);
    if (approvers.kind === 'people' && approvers.people.length === 0) {
      details.push({
        code: 'required',
        target: `${target}.approvers.people`,
        message:
          stage.decision === 'all'
            ? `The approval stage "${stage.name}" waits for all of its people, and names nobody.`
            : `The approval stage "${stage.name}" names nobody to decide.`,
      });
    }
  });
  return details;
}

/**
 * An escalation must reach someone. Its default, the governance managers, can be listed by the
 * embedded directory only: with Microsoft Graph the role is in each person's token, so a policy
 * that escalates there names its own team, or its escalations would silently reach nobody.
 */
function escalationProblems(approval: ApprovalPolicy, listsRoleHolders: boolean): ErrorDetail[] {
  const escalates = approval.requireApproval && approval.escalateAfterHours !== undefined;
  if (!escalates || listsRoleHolders || (approval.escalationTeam?.length ?? 0) > 0) return [];
  return [
    {
      code: 'escalationTeamRequired',
      target: 'templateConfiguration.approval.escalationTeam',
      message:
        'This policy escalates after escalateAfterHours, but names no escalationTeam, and Microsoft ' +
        'Graph cannot list the governance managers (their role comes with their sign-in): name ' +
        'the people escalations should reach.',
    },
  ];
}

function syntaxCheck(compile: () => unknown, target: string, details: ErrorDetail[]): void {
  try {
    compile();
  } catch (error) {
    if (!(error instanceof RuleSyntaxError)) throw error;
    details.push({
      code: 'syntaxError',
      target,
      message: `${error.message} (at position ${error.position})`,
    });
  }
}
