import {
  bypassesCondition,
  isGranted,
  OPERATIONS,
  type OperationPolicy,
  policyOf,
} from '../../src/domain/rbac';
import type { AppRole } from '../../src/contract/roles';

/** The 39 operations of api-contract.md, with their tiers. */
const CONTRACT: Record<string, 1 | 2 | 3> = {
  createTeamProvisioningJob: 1,
  getJob: 2,
  getTeam: 3,
  updateTeam: 2,
  deleteTeam: 3,
  archiveTeam: 1,
  unarchiveTeam: 1,
  getTeamMembers: 3,
  addTeamMember: 2,
  getTeamChannels: 3,
  createTeamChannel: 2,
  getTeamPrimaryChannel: 3,
  getTeamChannelTabs: 3,
  createTeamChannelTab: 2,
  getCatalogTemplates: 2,
  getMyCatalogTemplates: 2,
  getPlatformTeamTemplate: 2,
  setPlatformTeamTemplate: 2,
  getPlatformTeamTemplatePermanentMembership: 3,
  setPlatformTeamTemplatePermanentMembership: 2,
  getPlatformTeamTemplatePermanentMembershipByRole: 3,
  setPlatformTeamTemplatePermanentMembershipByRole: 2,
  approveTeamCreation: 3,
  rejectTeamCreation: 3,
  getTeamNamespaceMetadata: 3,
  setTeamNamespaceMetadata: 2,
  updateTeamNamespaceMetadata: 2,
  queryMetadata: 2,
  getAuditTrails: 3,
  getAuditTrailRecords: 2,
  getReports: 3,
  getReportsCategories: 3,
  getReportUrl: 2,
  getMyLabels: 2,
  getUsers: 3,
  createHook: 2,
  deleteHook: 2,
  generateHookSignature: 3,
  getHooksEvents: 3,
};

const roles = (...r: AppRole[]) => new Set<AppRole>(r);
const policies = OPERATIONS as Record<string, OperationPolicy>;

describe('RBAC table', () => {
  test('holds exactly the 39 contract operations (plus marked extensions) with their tiers', () => {
    const contractOps = Object.entries(policies).filter(([, p]) => !p.extension);
    expect(contractOps.map(([id]) => id).sort()).toEqual(Object.keys(CONTRACT).sort());
    expect(contractOps).toHaveLength(39);
    for (const [id, policy] of contractOps) expect([id, policy.tier]).toEqual([id, CONTRACT[id]]);
  });

  test('the admin set of the contract reads teams; a plain user does not', () => {
    const getTeam = policyOf('getTeam');
    for (const role of [
      'AUTHORIZED_APP',
      'INTEGRATION_MANAGER',
      'GOVERNANCE_MANAGER',
      'TEAMS_SERVICE_ADMIN',
      'GLOBAL_ADMIN',
    ] as const) {
      expect(isGranted(getTeam, roles(role))).toBe(true);
    }
    expect(isGranted(getTeam, roles('AUTHENTICATED_USER'))).toBe(false);
    expect(isGranted(getTeam, roles('CATALOG_MANAGER'))).toBe(false);
  });

  test('webhooks are for integration managers and admins only', () => {
    for (const id of ['createHook', 'deleteHook'] as const) {
      expect(isGranted(policyOf(id), roles('AUTHORIZED_APP'))).toBe(false);
      expect(isGranted(policyOf(id), roles('AUTHENTICATED_USER', 'CATALOG_MANAGER'))).toBe(false);
      expect(isGranted(policyOf(id), roles('INTEGRATION_MANAGER'))).toBe(true);
    }
  });

  test('conditions bind plain users only; the listed admin roles bypass them', () => {
    const archive = policyOf('archiveTeam');
    expect(archive.condition).toBe('owner');
    expect(bypassesCondition(archive, roles('AUTHENTICATED_USER'))).toBe(false);
    expect(bypassesCondition(archive, roles('AUTHENTICATED_USER', 'GOVERNANCE_MANAGER'))).toBe(true);
    // A role the operation does not list grants nothing, so it bypasses nothing.
    expect(bypassesCondition(archive, roles('AUTHENTICATED_USER', 'CATALOG_MANAGER'))).toBe(false);
    expect(
      bypassesCondition(policyOf('approveTeamCreation'), roles('AUTHENTICATED_USER', 'GLOBAL_ADMIN')),
    ).toBe(false);
  });

  test('the "me" operations and provisioning need a user, not an app', () => {
    for (const id of ['getMyCatalogTemplates', 'getMyLabels', 'createTeamProvisioningJob'] as const) {
      expect(isGranted(policyOf(id), roles('AUTHORIZED_APP', 'INTEGRATION_MANAGER'))).toBe(false);
      expect(isGranted(policyOf(id), roles('AUTHENTICATED_USER'))).toBe(true);
    }
  });
});
