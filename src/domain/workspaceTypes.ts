import type { WorkspaceType } from '../contract/workspaceTypes';
import type { ErrorDetail } from './errors';

/**
 * The workspace types Steward can provision. Every other type's templates may be kept in the
 * catalog, and a request from one is refused before anything is made (docs/guides/templates.md,
 * "Workspace types").
 */
export const PROVISIONABLE_TYPES: readonly WorkspaceType[] = ['team'];

const NAMES: Record<WorkspaceType, string> = {
  team: 'team',
  group: 'Microsoft 365 group',
  communicationSite: 'communication site',
  community: 'Viva Engage community',
};

/** A workspace type in plain words ("communication site"). */
export function workspaceTypeName(type: WorkspaceType): string {
  return NAMES[type];
}

/**
 * Why a request from `template` cannot be made, naming the request's template (400
 * `workspaceTypeNotProvisionable`), or undefined when Steward can provision its type.
 */
export function notProvisionable(template: {
  templateConfiguration: { name: string; workspaceType: WorkspaceType };
}): ErrorDetail | undefined {
  const { name, workspaceType } = template.templateConfiguration;
  if (PROVISIONABLE_TYPES.includes(workspaceType)) return undefined;
  return {
    code: 'workspaceTypeNotProvisionable',
    target: 'template.id',
    message:
      `"${name}" makes a ${NAMES[workspaceType]} (workspace type "${workspaceType}"), which Steward ` +
      'cannot provision yet: only team templates can be requested for now. Nothing was created.',
  };
}
