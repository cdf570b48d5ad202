import { randomBytes } from 'node:crypto';
import { fail, type Json, type Reply } from './protocol';
import { AppRolesApi } from './appRoles';
import { ENTRA_ROLES, type Handler, type ParsedRequest } from './records';

/** Microsoft Graph's application id, the same in every tenant. */
export const MICROSOFT_GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

/**
 * Application permissions of Microsoft Graph's service principal in the simulated tenant (the
 * `value`s of its app roles, `permissions-reference.md`): those Steward and its administrator use,
 * and a few it must not be given.
 */
const GRAPH_APP_ROLES = [
  'Team.Create',
  'Group.ReadWrite.All',
  'Group.Read.All',
  'TeamSettings.ReadWrite.All',
  'TeamMember.ReadWrite.All',
  'TeamMember.ReadWriteNonOwnerRole.All',
  'Channel.Create',
  'Channel.ReadBasic.All',
  'Files.ReadWrite.All',
  'TeamsTab.ReadWrite.All',
  'Tasks.ReadWrite.All',
  'TeamworkTag.ReadWrite.All',
  'TeamsAppInstallation.ReadWriteForTeam.All',
  'TeamsAppInstallation.ReadWriteSelfForTeam.All',
  'AppCatalog.Read.All',
  'AppCatalog.ReadWrite.All',
  'User.Read.All',
  'GroupMember.Read.All',
  'SensitivityLabels.Read.All',
  'Reports.Read.All',
  'Application.Read.All',
  'Application.ReadWrite.All',
  'AppRoleAssignment.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];

/** Delegated permissions that read a service principal's app role assignments (`api/serviceprincipal-list-approleassignments.md`). */
const DELEGATED_ASSIGNMENT_READ = [
  'Application.Read.All',
  'AppRoleAssignment.ReadWrite.All',
  'Application.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
  'Directory.AccessAsUser.All',
];

/**
 * Granting app roles (application permissions) to a service principal, as an administrator does:
 *
 * - Microsoft Graph's own service principal, with its app roles, is in every tenant
 *   (`concepts/permissions-grant-via-msgraph.md`; found by `appId` with `api/serviceprincipal-get.md`).
 * - `GET /servicePrincipals/{id}/appRoleAssignments` (`api/serviceprincipal-list-approleassignments.md`):
 *   the app roles granted to that principal.
 * - `POST /servicePrincipals/{id}/appRoleAssignments` (`api/serviceprincipal-post-approleassignments.md`):
 *   `principalId`, `resourceId` and `appRoleId` required, 201 with the appRoleAssignment. Permission
 *   `AppRoleAssignment.ReadWrite.All` (or, delegated, `Directory.AccessAsUser.All`). A person also
 *   needs a Microsoft Entra role that may grant it: for Microsoft Graph's app roles, Privileged Role
 *   Administrator (or Global Administrator); for another API's, Cloud Application or Application
 *   Administrator too (Entra ID docs, "Grant tenant-wide admin consent to an application").
 *   A role already granted is Graph's 400 `Request_BadRequest` "Permission being assigned already
 *   exists on the object." and a role the resource does not define "Permission being assigned was
 *   not found on application." (the answers Graph gives; its pages do not quote them).
 */
export abstract class AppRoleGrantsApi extends AppRolesApi {
  /** Adds Microsoft Graph's service principal (the server does, once, as every tenant has it). */
  protected addMicrosoftGraph(): void {
    this.addServicePrincipal({
      appId: MICROSOFT_GRAPH_APP_ID,
      displayName: 'Microsoft Graph',
      servicePrincipalNames: [MICROSOFT_GRAPH_APP_ID, 'https://graph.microsoft.com'],
      appRoles: GRAPH_APP_ROLES.map((value) => ({ value })),
    });
  }

  /** The app roles (values) of `resourceAppId` granted to the service principal `principalId`. */
  grantedRoles(principalId: string, resourceAppId = MICROSOFT_GRAPH_APP_ID): string[] {
    const resource = [...this.servicePrincipals.values()].find((sp) => sp.appId === resourceAppId);
    if (!resource) return [];
    return this.appRoleAssignments
      .filter((a) => a.principalId === principalId && a.resourceId === resource.id)
      .map((a) => resource.appRoles.find((role) => role.id === a.appRoleId)?.value ?? '?');
  }

  protected appRoleGrantRoutes(): Array<[string, RegExp, Handler]> {
    const id = '([^/()]+)';
    return [
      [
        'GET',
        new RegExp(`^/servicePrincipals/${id}/appRoleAssignments$`),
        (r, sp) => this.assignmentsOf(r, sp),
      ],
      ['POST', new RegExp(`^/servicePrincipals/${id}/appRoleAssignments$`), (r, sp) => this.grant(r, sp)],
    ];
  }

  private assignmentsOf(request: ParsedRequest, principalId: string): Reply {
    const denied = this.denied(
      ['Application.Read.All', 'AppRoleAssignment.ReadWrite.All', 'Directory.Read.All'],
      DELEGATED_ASSIGNMENT_READ,
    );
    if (denied) return denied;
    if (!this.servicePrincipals.has(principalId)) return this.notFound(principalId);
    const assignments = this.appRoleAssignments.filter((a) => a.principalId === principalId);
    return this.collection(request, assignments as unknown as Json[]);
  }

  private grant(request: ParsedRequest, principalId: string): Reply {
    const body = request.body;
    const resource = this.servicePrincipals.get(String(body.resourceId ?? ''));
    const graph = resource?.appId === MICROSOFT_GRAPH_APP_ID;
    const roles: string[] = [ENTRA_ROLES.globalAdministrator, ENTRA_ROLES.privilegedRoleAdministrator];
    if (!graph) roles.push(ENTRA_ROLES.cloudApplicationAdministrator, ENTRA_ROLES.applicationAdministrator);
    const denied = this.denied(
      ['AppRoleAssignment.ReadWrite.All'],
      ['AppRoleAssignment.ReadWrite.All', 'Directory.AccessAsUser.All'],
      roles,
    );
    if (denied) return denied;
    const principal = this.servicePrincipals.get(principalId);
    if (!principal) return this.notFound(principalId);
    for (const field of ['principalId', 'resourceId', 'appRoleId']) {
      if (typeof body[field] !== 'string' || !body[field])
        return fail(
          400,
          'Request_BadRequest',
          `A value is required for property '${field}' of resource 'AppRoleAssignment'.`,
        );
    }
    if (body.principalId !== principalId)
      return fail(
        400,
        'Request_BadRequest',
        'The principalId must be the service principal the request is sent to.',
      );
    if (!resource) return this.notFound(String(body.resourceId));
    if (!resource.appRoles.some((role) => role.id === body.appRoleId && role.isEnabled))
      return fail(400, 'Request_BadRequest', 'Permission being assigned was not found on application.');
    if (
      this.appRoleAssignments.some(
        (a) =>
          a.principalId === principalId && a.resourceId === resource.id && a.appRoleId === body.appRoleId,
      )
    )
      return fail(400, 'Request_BadRequest', 'Permission being assigned already exists on the object.');
    const assignment = {
      // Graph's assignment ids are opaque base64url strings.
      id: randomBytes(32).toString('base64url').slice(0, 43),
      deletedDateTime: null,
      appRoleId: String(body.appRoleId),
      createdDateTime: new Date().toISOString(),
      principalDisplayName: principal.displayName ?? null,
      principalId,
      principalType: 'ServicePrincipal',
      resourceDisplayName: resource.displayName ?? null,
      resourceId: resource.id,
    };
    this.appRoleAssignments.push(assignment);
    return { status: 201, body: assignment };
  }
}
