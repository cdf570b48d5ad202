import { type AppRole, GOVERNANCE_ROLES } from '../contract/roles';

/** Who may call an operation and how many calls a minute it gets. */
export interface OperationPolicy {
  /** Roles any of which grants the call. AUTHENTICATED_USER calls are subject to `condition`. */
  readonly roles: readonly AppRole[];
  /** Rate-limit tier: 1 = 6, 2 = 20, 3 = 60 calls a minute per caller. */
  readonly tier: 1 | 2 | 3;
  /** A relationship a plain user must have, checked by the service (admin roles bypass it). */
  readonly condition?: 'owner' | 'member' | 'approver' | 'requester' | 'targeted' | 'creator';
  /** Not one of the 39 operations of the contract: marked `x-steward-extension` in OpenAPI. */
  readonly extension?: true;
}

const U = 'AUTHENTICATED_USER';
const ADMIN_SET = [
  'AUTHORIZED_APP',
  'INTEGRATION_MANAGER',
  'GOVERNANCE_MANAGER',
  'TEAMS_SERVICE_ADMIN',
  'GLOBAL_ADMIN',
] as const satisfies readonly AppRole[];
const CATALOG_READ = [
  'AUTHORIZED_APP',
  'CATALOG_MANAGER',
  'INTEGRATION_MANAGER',
  'TEAMS_SERVICE_ADMIN',
  'GLOBAL_ADMIN',
] as const satisfies readonly AppRole[];
const CATALOG_WRITE = [
  'CATALOG_MANAGER',
  'TEAMS_SERVICE_ADMIN',
  'GLOBAL_ADMIN',
  'AUTHORIZED_APP',
] as const satisfies readonly AppRole[];
const AUDIT = ['AUTHORIZED_APP', 'GOVERNANCE_MANAGER', 'TEAMS_SERVICE_ADMIN', 'GLOBAL_ADMIN'] as const;
const REPORTS = ['GOVERNANCE_MANAGER', 'TEAMS_SERVICE_ADMIN', 'GLOBAL_ADMIN'] as const;
/** The roles that manage webhooks, and may receive a template's or the tenant's events. */
export const HOOK_ROLES = ['INTEGRATION_MANAGER', 'TEAMS_SERVICE_ADMIN', 'GLOBAL_ADMIN'] as const;
const HOOKS = HOOK_ROLES;
const TEAM_ADMINS = GOVERNANCE_ROLES;

/**
 * The one table of operation security (`api-contract.md`): routes declare their operationId and
 * nothing else about roles or tiers.
 */
export const OPERATIONS = {
  createTeamProvisioningJob: { roles: [U], tier: 1 },
  getJob: { roles: [U, ...ADMIN_SET], tier: 2, condition: 'requester' },
  getTeam: { roles: ADMIN_SET, tier: 3 },
  updateTeam: { roles: ADMIN_SET, tier: 2 },
  deleteTeam: { roles: [U, 'TEAMS_SERVICE_ADMIN', 'GLOBAL_ADMIN'], tier: 3, condition: 'owner' },
  archiveTeam: { roles: [U, ...TEAM_ADMINS], tier: 1, condition: 'owner' },
  unarchiveTeam: { roles: [U, ...TEAM_ADMINS], tier: 1, condition: 'owner' },
  getTeamMembers: { roles: [U, ...ADMIN_SET], tier: 3, condition: 'member' },
  addTeamMember: { roles: [U], tier: 2, condition: 'owner' },
  getTeamChannels: { roles: [U], tier: 3, condition: 'member' },
  createTeamChannel: { roles: [U], tier: 2, condition: 'owner' },
  getTeamPrimaryChannel: { roles: [U], tier: 3, condition: 'member' },
  getTeamChannelTabs: { roles: [U], tier: 3, condition: 'member' },
  createTeamChannelTab: { roles: [U], tier: 2, condition: 'owner' },
  getCatalogTemplates: { roles: CATALOG_READ, tier: 2 },
  getMyCatalogTemplates: { roles: [U], tier: 2 },
  // What a person asked for and may not use: "not offered to you", and who it is for.
  getMyUnavailableTemplates: { roles: [U], tier: 3, extension: true },
  getPlatformTeamTemplate: { roles: [U, ...CATALOG_READ], tier: 2, condition: 'targeted' },
  setPlatformTeamTemplate: { roles: CATALOG_WRITE, tier: 2 },
  getPlatformTeamTemplatePermanentMembership: { roles: CATALOG_READ, tier: 3 },
  setPlatformTeamTemplatePermanentMembership: { roles: CATALOG_WRITE, tier: 2 },
  getPlatformTeamTemplatePermanentMembershipByRole: { roles: CATALOG_READ, tier: 3 },
  setPlatformTeamTemplatePermanentMembershipByRole: { roles: CATALOG_WRITE, tier: 2 },
  approveTeamCreation: { roles: [U], tier: 3, condition: 'approver' },
  rejectTeamCreation: { roles: [U], tier: 3, condition: 'approver' },
  getTeamNamespaceMetadata: { roles: ADMIN_SET, tier: 3 },
  setTeamNamespaceMetadata: { roles: ADMIN_SET, tier: 2 },
  updateTeamNamespaceMetadata: { roles: ADMIN_SET, tier: 2 },
  queryMetadata: { roles: ADMIN_SET, tier: 2 },
  getAuditTrails: { roles: AUDIT, tier: 3 },
  getAuditTrailRecords: { roles: AUDIT, tier: 2 },
  getReports: { roles: REPORTS, tier: 3 },
  getReportsCategories: { roles: REPORTS, tier: 3 },
  getReportUrl: { roles: REPORTS, tier: 2 },
  getMyLabels: { roles: [U], tier: 2 },
  getUsers: { roles: [U], tier: 3 },
  createHook: { roles: HOOKS, tier: 2 },
  deleteHook: { roles: HOOKS, tier: 2 },
  generateHookSignature: { roles: [U], tier: 3 },
  getHooksEvents: { roles: [U], tier: 3 },
  getMyJobs: { roles: [U], tier: 3, extension: true },
  withdrawTeamProvisioningJob: { roles: [U], tier: 2, condition: 'requester', extension: true },
  getMyApprovals: { roles: [U], tier: 3, condition: 'approver', extension: true },
  // Several jobs in one read: how the bot keeps many progress cards up to date in a few calls.
  getJobs: { roles: [U, ...ADMIN_SET], tier: 3, condition: 'requester', extension: true },
  previewTeamProvisioning: { roles: [U], tier: 3, extension: true },
  // A plain user reads the hooks they made (their triggers); the hook roles read every one.
  listHooks: { roles: [U, ...HOOKS], tier: 3, condition: 'creator', extension: true },
  getHook: { roles: [U, ...HOOKS], tier: 3, condition: 'creator', extension: true },
  getHookDeliveries: { roles: [U, ...HOOKS], tier: 3, condition: 'creator', extension: true },
  getLifecyclePolicy: { roles: TEAM_ADMINS, tier: 3, extension: true },
  setLifecyclePolicy: { roles: TEAM_ADMINS, tier: 2, extension: true },
  getTeamLifecycle: { roles: [U, ...ADMIN_SET], tier: 3, condition: 'owner', extension: true },
  renewTeamLifecycle: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  previewLifecycle: { roles: TEAM_ADMINS, tier: 1, extension: true },
  createLifecycleEvaluation: { roles: TEAM_ADMINS, tier: 1, extension: true },
  recordTeamActivity: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  reportNotRightPerson: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  stepUpAsTeamOwner: { roles: [U], tier: 2, condition: 'member', extension: true },
  reviewTeamGuests: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  // A person's own authority only: Graph refuses a label to an application's token.
  applyTeamSensitivityLabel: { roles: [U], tier: 2, condition: 'owner', extension: true },
  // The team directory and requests to join teams (docs/guides/joining-teams.md): what a person may see, governance
  // managers everything.
  searchTeamDirectory: { roles: [U, ...TEAM_ADMINS], tier: 3, extension: true },
  createTeamJoinRequest: { roles: [U], tier: 2, extension: true },
  getTeamJoinRequests: { roles: [U, ...TEAM_ADMINS], tier: 3, condition: 'owner', extension: true },
  getMyJoinRequests: { roles: [U], tier: 3, extension: true },
  getJoinRequest: { roles: [U, ...TEAM_ADMINS], tier: 3, condition: 'owner', extension: true },
  decideTeamJoinRequest: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  getTemplateVersions: { roles: [U, ...CATALOG_READ], tier: 3, condition: 'targeted', extension: true },
  // Template drift: a team's owners for their team, governance managers for any and for a template's teams.
  getTeamDrift: { roles: [U, ...TEAM_ADMINS], tier: 3, condition: 'owner', extension: true },
  applyTeamDrift: { roles: [U, ...TEAM_ADMINS], tier: 2, condition: 'owner', extension: true },
  answerTeamDrift: { roles: [U], tier: 2, condition: 'owner', extension: true },
  getTemplateDrift: { roles: TEAM_ADMINS, tier: 2, extension: true },
  applyTemplateDrift: { roles: TEAM_ADMINS, tier: 1, extension: true },
  // The bot's app identity (INTEGRATION_MANAGER) reads them to tell them about teams nobody owns.
  getGovernanceManagers: {
    roles: ['INTEGRATION_MANAGER', 'AUTHORIZED_APP', ...TEAM_ADMINS],
    tier: 3,
    extension: true,
  },
  // Power Automate's triggers (docs/guides/power-automate.md): anyone subscribes to the events that
  // name them; integration managers and admins to a template's or the tenant's.
  createHookSubscription: { roles: [U, ...HOOKS], tier: 2, extension: true },
  deleteHookSubscription: { roles: [U, ...HOOKS], tier: 2, condition: 'creator', extension: true },
  activateHook: { roles: [U, ...HOOKS], tier: 2, condition: 'creator', extension: true },
} as const satisfies Record<string, OperationPolicy>;

export type OperationId = keyof typeof OPERATIONS;

/** Calls a minute per caller for each tier, before `STEWARD_RATE_LIMIT_FACTOR`. */
export const TIER_LIMITS: Readonly<Record<1 | 2 | 3, number>> = { 1: 6, 2: 20, 3: 60 };

/** The policy of an operation (contract operations and extensions alike). */
export function policyOf(operationId: OperationId): OperationPolicy {
  return OPERATIONS[operationId];
}

/** True when one of `roles` grants the operation. */
export function isGranted(policy: OperationPolicy, roles: ReadonlySet<AppRole>): boolean {
  return policy.roles.some((role) => roles.has(role));
}

/** True when the caller holds a listed role other than AUTHENTICATED_USER, so conditions do not apply. */
export function bypassesCondition(policy: OperationPolicy, roles: ReadonlySet<AppRole>): boolean {
  return policy.roles.some((role) => role !== U && roles.has(role));
}
