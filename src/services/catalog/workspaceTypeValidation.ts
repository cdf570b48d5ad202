import type { z } from 'zod';
import { type ErrorDetail, ValidationFailed } from '../../domain/errors';
import { workspaceTypeName } from '../../domain/workspaceTypes';
import {
  CatalogTemplate,
  NewTeam,
  TemplateCommunicationSite,
  TemplateGroup,
  type WorkspaceType,
} from '../../contract';
import type { TemplateRepository } from '../../store/catalog/templates';
import type { JobRepository } from '../../store/jobs/jobs';

type NewTeamField = keyof CatalogTemplate['newTeam'];
type Section = 'clonedTeam' | 'newGroup' | 'newCommunicationSite';

/**
 * The fields of `newTeam` that apply to some workspace types only; each other field of `newTeam`
 * (the naming and description conventions, the default name and description, whether the
 * requester becomes an owner) applies to every type. A team's privacy is a group's visibility and a
 * community's privacy; its mail nickname is a group's; a community gets no mail nickname from its
 * maker (Microsoft Graph's community takes a name, a description and a privacy only).
 */
const NEW_TEAM_FIELDS: Partial<Record<NewTeamField, readonly WorkspaceType[]>> = {
  teamPrivacy: ['team', 'group', 'community'],
  emailConvention: ['team', 'group'],
  emailConventionWithTags: ['team', 'group'],
  welcomeMessageConvention: ['team'],
  welcomeMessageConventionWithTags: ['team'],
  defaultWelcomeMessage: ['team'],
  channels: ['team'],
  tabs: ['team'],
  settings: ['team'],
  planner: ['team'],
  tags: ['team'],
  apps: ['team'],
};

/** The template's sections of one type each. */
const SECTIONS: Record<Section, WorkspaceType> = {
  clonedTeam: 'team',
  newGroup: 'group',
  newCommunicationSite: 'communicationSite',
};

/**
 * The fields of a template that do not apply to its workspace type, each named (400
 * `notForWorkspaceType`). A field counts as set when it differs from its default: a template read
 * back holds every default (no channels, `teamPrivacy: private`), and saving it again unchanged
 * must not be refused.
 */
export function workspaceTypeProblems(template: CatalogTemplate): ErrorDetail[] {
  const type = template.templateConfiguration.workspaceType;
  const details: ErrorDetail[] = [];
  const refuse = (target: string, types: readonly WorkspaceType[]) =>
    details.push({
      code: 'notForWorkspaceType',
      target,
      message:
        `"${target}" does not apply to a ${workspaceTypeName(type)} template: ` +
        `only ${inWords(types)} templates take it.`,
    });
  for (const [field, types] of Object.entries(NEW_TEAM_FIELDS) as [NewTeamField, WorkspaceType[]][]) {
    const schema = NewTeam.shape[field] as z.ZodType;
    if (!types.includes(type) && !isDefault(template.newTeam[field], schema))
      refuse(`newTeam.${field}`, types);
  }
  for (const [section, owner] of Object.entries(SECTIONS) as [Section, WorkspaceType][]) {
    const schema = CatalogTemplate.shape[section] as z.ZodType;
    if (owner !== type && !isDefault(template[section], schema)) refuse(section, [owner]);
  }
  if (type === 'group' && template.newGroup?.hiddenMembership && template.newTeam.teamPrivacy !== 'private') {
    details.push({
      code: 'invalidValue',
      target: 'newGroup.hiddenMembership',
      message:
        'A group with hidden membership is private: its visibility is HiddenMembership, neither public nor ' +
        'private, so newTeam.teamPrivacy must be "private" with it.',
    });
  }
  return details;
}

/**
 * Refuses a change of a template's workspace type once a team was requested from it (400
 * `readOnly`): the teams made, or on their way, would be held to a template of another kind by
 * drift and lifecycle. A template nobody used may change type.
 */
export async function refuseTypeChange(
  id: string,
  template: CatalogTemplate,
  deps: { templates: Pick<TemplateRepository, 'get'>; jobs: Pick<JobRepository, 'templateInUse'> },
): Promise<void> {
  const type = template.templateConfiguration.workspaceType;
  const before = (await deps.templates.get(id))?.template.templateConfiguration.workspaceType;
  if (before === undefined || before === type || !(await deps.jobs.templateInUse(id))) return;
  throw new ValidationFailed('The template is not valid.', [
    {
      code: 'readOnly',
      target: 'templateConfiguration.workspaceType',
      message:
        `Teams were requested from this template as a ${workspaceTypeName(before)} template: its workspace ` +
        `type stays "${before}". Make a new template for a ${workspaceTypeName(type)}.`,
    },
  ]);
}

/** The template with its type's own section, defaults applied, when it was left out. */
export function withWorkspaceSection(template: CatalogTemplate): CatalogTemplate {
  const type = template.templateConfiguration.workspaceType;
  if (type === 'group' && !template.newGroup) return { ...template, newGroup: TemplateGroup.parse({}) };
  if (type === 'communicationSite' && !template.newCommunicationSite)
    return { ...template, newCommunicationSite: TemplateCommunicationSite.parse({}) };
  return template;
}

/** Types in plain words: "team, Microsoft 365 group and Viva Engage community". */
function inWords(types: readonly WorkspaceType[]): string {
  const names = types.map(workspaceTypeName);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
}

/** True when `value` is what `schema` makes of an absent field (its default, or nothing). */
function isDefault(value: unknown, schema: z.ZodType): boolean {
  const absent = schema.safeParse(undefined);
  return absent.success && JSON.stringify(absent.data) === JSON.stringify(value);
}
