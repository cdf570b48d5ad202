/** The app roles of `governance.md`; a token's `roles` and `wids` claims map onto these. */
export const APP_ROLES = [
  'AUTHENTICATED_USER',
  'AUTHORIZED_APP',
  'INTEGRATION_MANAGER',
  'GOVERNANCE_MANAGER',
  'CATALOG_MANAGER',
  'TEAMS_SERVICE_ADMIN',
  'GLOBAL_ADMIN',
] as const;
export type AppRole = (typeof APP_ROLES)[number];

/** Roles a token may carry in its `roles` claim (AUTHENTICATED_USER is implied by being a user). */
export const ASSIGNABLE_ROLES: readonly AppRole[] = APP_ROLES.filter((r) => r !== 'AUTHENTICATED_USER');

/** Entra ID directory role template ids (`wids`) that grant a Steward role. */
export const DIRECTORY_ROLE_TEMPLATES: Readonly<Record<string, AppRole>> = {
  '62e90394-69f5-4237-9190-012177145e10': 'GLOBAL_ADMIN',
  '69091246-20e8-4a56-aa4d-066075b2a7a8': 'TEAMS_SERVICE_ADMIN',
};

/** Narrows an arbitrary string to an AppRole. */
export function isAppRole(value: string): value is AppRole {
  return (APP_ROLES as readonly string[]).includes(value);
}

/**
 * The roles with governance powers over teams (lifecycle policy, renewals, reports): the governance
 * managers, and the Teams and global admins. They are who hears of teams nobody owns.
 */
export const GOVERNANCE_ROLES = [
  'GOVERNANCE_MANAGER',
  'TEAMS_SERVICE_ADMIN',
  'GLOBAL_ADMIN',
] as const satisfies readonly AppRole[];
export type GovernanceRole = (typeof GOVERNANCE_ROLES)[number];

/** Narrows a role to a governance role. */
export function isGovernanceRole(role: AppRole): role is GovernanceRole {
  return (GOVERNANCE_ROLES as readonly AppRole[]).includes(role);
}
