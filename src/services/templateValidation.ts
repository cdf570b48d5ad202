import { type ErrorDetail, ValidationFailed } from '../domain/errors';
import { compileConvention, compileRule, RuleSyntaxError } from '../domain/rules';
import type { CatalogTemplate, PermanentMember } from '../domain/wire';
import type { DirectoryService } from './directory';

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
  if (config.approval.requireApproval && config.approval.approvalTeam.length === 0) {
    details.push({
      code: 'required',
      target: 'templateConfiguration.approval.approvalTeam',
      message: 'A template that requires approval needs at least one approver.',
    });
  }
  const channels = new Set(['general', ...input.newTeam.channels.map((c) => c.displayName.toLowerCase())]);
  input.newTeam.tabs.forEach((tab, index) => {
    if (!channels.has(tab.channel.toLowerCase())) {
      details.push({
        code: 'unknownChannel',
        target: `newTeam.tabs[${index}].channel`,
        message: `The tab's channel "${tab.channel}" is neither General nor one of the template's channels.`,
      });
    }
  });
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
  for (const result of people) {
    if (result.status === 'rejected') {
      if (!(result.reason instanceof ValidationFailed)) throw result.reason;
      details.push(...result.reason.details);
    }
  }
  if (details.length > 0) throw new ValidationFailed('The template is not valid.', details);
  const [approvalTeam, owners, members] = people.map(
    (r) => (r as PromiseFulfilledResult<PermanentMember[]>).value,
  );
  return {
    ...input,
    templateConfiguration: {
      id, // first, for readers of the JSON; the body's id (if any) equals it
      ...config,
      approval: { ...config.approval, approvalTeam: approvalTeam! },
      permanentMembership: { owners: owners!, members: members! },
    },
  };
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
