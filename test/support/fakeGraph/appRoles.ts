import { randomBytes, randomUUID } from 'node:crypto';
import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { DirectoryApi } from './directory';
import { fail, type Json, type Reply, unquote } from './protocol';
import type { Caller, Handler, ParsedRequest } from './records';

type ServicePrincipal = MSGraph.ServicePrincipal & { id: string; appId: string; appRoles: MSGraph.AppRole[] };

/** Permissions any one of which lets an app read service principals and their assignments (least privileged first). */
const APPLICATION_READ = [
  'Application.Read.All',
  'Application.ReadWrite.OwnedBy',
  'Application.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];
/** The delegated ones (`api/serviceprincipal-get.md`; Directory.AccessAsUser.All acts as the person). */
export const DELEGATED_APPLICATION_READ = [
  'Application.Read.All',
  'Application.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
  'Directory.AccessAsUser.All',
];
/** Permissions any one of which lets an app list a group's transitive members. */
const GROUP_MEMBER_READ = [
  'GroupMember.Read.All',
  'Group.Read.All',
  'GroupMember.ReadWrite.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
];

/**
 * Service principals, their app roles and who is assigned them, and groups' transitive members,
 * with the application permissions Graph checks for them:
 *
 * - `GET /servicePrincipals(appId='{appId}')` and `GET /servicePrincipals/{id}`
 *   (`api/serviceprincipal-get.md`), `GET /servicePrincipals?$filter=servicePrincipalNames/any(n:n eq '…')`
 *   (`api/serviceprincipal-list.md`; `resources/serviceprincipal.md`: "the any operator is required
 *   for filter expressions on multi-valued properties"), `$select` honoured;
 * - `GET /servicePrincipals/{id}/appRoleAssignedTo` (`api/serviceprincipal-list-approleassignedto.md`):
 *   appRoleAssignment objects for users, groups and apps, paged with `@odata.nextLink`;
 * - `GET /groups/{id}/transitiveMembers/microsoft.graph.user` (`api/group-list-transitivemembers.md`):
 *   the users of the group and of its nested groups, once each; the OData cast is an advanced
 *   query (`concepts/aad-advanced-queries.md`), so without `ConsistencyLevel: eventual` and
 *   `$count=true` it is refused with 400.
 *
 * Without one of the permissions each page lists, the answer is Graph's 403
 * `Authorization_RequestDenied` ("Insufficient privileges to complete the operation.").
 */
export abstract class AppRolesApi extends DirectoryApi {
  readonly servicePrincipals = new Map<string, ServicePrincipal>();

  readonly appRoleAssignments: Array<MSGraph.AppRoleAssignment & { id: string; resourceId: string }> = [];

  /** Who makes the request being handled (set by the server before it routes one). */
  protected caller: Caller | undefined;

  /** Groups that are members of a group (group id → member group ids). */
  readonly nestedGroups = new Map<string, Set<string>>();

  /**
   * The application permissions Steward's app was granted, with admin consent: those its
   * deployment guide asks for, and Application.Read.All to read app-role assignments.
   */
  readonly granted = new Set([
    'Team.Create',
    'Group.ReadWrite.All',
    'TeamSettings.ReadWrite.All',
    'TeamMember.ReadWrite.All',
    'Channel.Create',
    'Channel.ReadBasic.All',
    'TeamsTab.ReadWrite.All',
    'User.Read.All',
    'GroupMember.Read.All',
    'SensitivityLabels.Read.All',
    'TeamsAppInstallation.ReadWriteSelfForTeam.All',
    'TeamsAppInstallation.ReadWriteForTeam.All',
    'Tasks.ReadWrite.All',
    'TeamworkTag.ReadWrite.All',
    'Reports.Read.All',
    'Application.Read.All',
    'AppCatalog.Read.All',
  ]);

  /** Adds an app's service principal with app roles (`value`s; ids are new GUIDs unless given). */
  addServicePrincipal(app: {
    appId: string;
    displayName: string;
    servicePrincipalNames?: string[];
    appRoles: Array<{ value: string; id?: string; isEnabled?: boolean }>;
  }): ServicePrincipal {
    const sp: ServicePrincipal = {
      id: randomUUID(),
      appId: app.appId,
      displayName: app.displayName,
      appDisplayName: app.displayName,
      servicePrincipalNames: app.servicePrincipalNames ?? [],
      servicePrincipalType: 'Application',
      accountEnabled: true,
      appRoleAssignmentRequired: false,
      appRoles: app.appRoles.map((role) => ({
        id: role.id ?? randomUUID(),
        value: role.value,
        displayName: role.value,
        description: role.value,
        isEnabled: role.isEnabled ?? true,
        allowedMemberTypes: ['User', 'Application'],
        origin: 'Application',
      })),
    };
    this.servicePrincipals.set(sp.id, sp);
    return sp;
  }

  /** Assigns the app role `value` of `sp` to a user, a group or another app's service principal. */
  assignAppRole(
    sp: ServicePrincipal,
    value: string,
    principal: { type: 'User' | 'Group' | 'ServicePrincipal'; id: string },
  ): void {
    const role = sp.appRoles.find((r) => r.value === value);
    if (!role?.id) throw new Error(`${sp.displayName} has no app role ${value}`);
    const name =
      principal.type === 'User'
        ? this.users.get(principal.id)?.displayName
        : principal.type === 'Group'
          ? this.groups.get(principal.id)?.displayName
          : this.servicePrincipals.get(principal.id)?.displayName;
    this.appRoleAssignments.push({
      // Graph's assignment ids are opaque base64url strings.
      id: randomBytes(32).toString('base64url').slice(0, 43),
      deletedDateTime: null,
      appRoleId: role.id,
      createdDateTime: new Date().toISOString(),
      principalDisplayName: name ?? null,
      principalId: principal.id,
      principalType: principal.type,
      resourceDisplayName: sp.displayName ?? null,
      resourceId: sp.id,
    });
  }

  /** Makes group `memberId` a member of group `groupId`. */
  nestGroup(groupId: string, memberId: string): void {
    this.group(groupId);
    this.group(memberId);
    const members = this.nestedGroups.get(groupId) ?? new Set<string>();
    members.add(memberId);
    this.nestedGroups.set(groupId, members);
  }

  /** The routes of this part of Graph, for the server's table. */
  protected appRoleRoutes(): Array<[string, RegExp, Handler]> {
    const id = '([^/]+)';
    return [
      ['GET', /^\/servicePrincipals\(appId=('(?:[^']|'')*')\)$/, (r, appId) => this.byAppId(r, appId)],
      ['GET', /^\/servicePrincipals$/, (r) => this.listServicePrincipals(r)],
      ['GET', new RegExp(`^/servicePrincipals/${id}$`), (r, sp) => this.getServicePrincipal(r, sp)],
      ['GET', new RegExp(`^/servicePrincipals/${id}/appRoleAssignedTo$`), (r, sp) => this.assignedTo(r, sp)],
      [
        'GET',
        new RegExp(`^/groups/${id}/transitiveMembers/microsoft\\.graph\\.user$`),
        (r, g) => this.transitiveUsers(r, g),
      ],
    ];
  }

  private byAppId(request: ParsedRequest, literal: string): Reply {
    const appId = unquote(literal);
    const sp = [...this.servicePrincipals.values()].find((s) => s.appId === appId);
    return sp ? this.getServicePrincipal(request, sp.id) : this.notFound(appId);
  }

  private getServicePrincipal(request: ParsedRequest, id: string): Reply {
    const denied = this.denied(APPLICATION_READ, DELEGATED_APPLICATION_READ);
    if (denied) return denied;
    const sp = this.servicePrincipals.get(id);
    return sp ? { status: 200, body: this.selected(request, sp) } : this.notFound(id);
  }

  private listServicePrincipals(request: ParsedRequest): Reply {
    const denied = this.denied(APPLICATION_READ);
    if (denied) return denied;
    const filter = request.url.searchParams.get('$filter');
    let all = [...this.servicePrincipals.values()];
    if (filter !== null) {
      const match = /^servicePrincipalNames\/any\((\w+):\s*\1 eq ('(?:[^']|'')*')\)$/.exec(filter.trim());
      if (!match)
        return fail(400, 'Request_UnsupportedQuery', `Unsupported or invalid query filter clause: ${filter}`);
      const name = unquote(match[2] ?? '');
      all = all.filter((sp) => (sp.servicePrincipalNames ?? []).includes(name));
    }
    return this.collection(
      request,
      all.map((sp) => this.selected(request, sp)),
    );
  }

  private assignedTo(request: ParsedRequest, id: string): Reply {
    const denied = this.denied(APPLICATION_READ);
    if (denied) return denied;
    if (!this.servicePrincipals.has(id)) return this.notFound(id);
    const assignments = this.appRoleAssignments.filter((a) => a.resourceId === id);
    return this.collection(request, assignments as unknown as Json[]);
  }

  private transitiveUsers(request: ParsedRequest, groupId: string): Reply {
    const denied = this.denied(GROUP_MEMBER_READ);
    if (denied) return denied;
    this.group(groupId);
    if (
      request.headers.consistencylevel !== 'eventual' ||
      request.url.searchParams.get('$count') !== 'true'
    ) {
      return fail(
        400,
        'Request_UnsupportedQuery',
        'The requested query with OData cast requires ConsistencyLevel: eventual and $count=true.',
      );
    }
    const userIds = new Set<string>();
    const seen = new Set<string>();
    const queue = [groupId];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (seen.has(current)) continue;
      seen.add(current);
      for (const userId of this.groups.get(current)?.memberIds ?? []) userIds.add(userId);
      queue.push(...(this.nestedGroups.get(current) ?? []));
    }
    const users = [...userIds].flatMap((userId) => {
      const user = this.users.get(userId);
      return user ? [{ '@odata.type': '#microsoft.graph.user', ...this.userJson(request, user) }] : [];
    });
    return this.collection(request, users);
  }

  /** A service principal with only the `$select`ed properties, when there is a `$select`. */
  private selected(request: ParsedRequest, sp: ServicePrincipal): Json {
    const select = request.url.searchParams.get('$select');
    const full = sp as unknown as Json;
    if (!select) return full;
    return Object.fromEntries(select.split(',').map((field) => [field, full[field] ?? null]));
  }

  /**
   * Graph's 403 unless the caller may: an app-only token needs one of the application permissions
   * `accepted` granted; a person's token one of the delegated permissions `delegated` in its `scp`
   * and, when `roles` are named, one of those Microsoft Entra roles (`wids`).
   */
  protected denied(
    accepted: readonly string[],
    delegated: readonly string[] = [],
    roles?: readonly string[],
  ): Reply | undefined {
    const refusal = fail(
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation.',
    );
    if (this.caller?.idtyp === 'user') {
      const scopes = (this.caller.scp ?? '').split(' ');
      if (!delegated.some((permission) => scopes.includes(permission))) return refusal;
      if (roles && !roles.some((role) => (this.caller?.wids ?? []).includes(role))) return refusal;
      return undefined;
    }
    if (accepted.some((permission) => this.granted.has(permission))) return undefined;
    return refusal;
  }

  protected notFound(key: string): Reply {
    return fail(
      404,
      'Request_ResourceNotFound',
      `Resource '${key}' does not exist or one of its queried reference-property objects are not present.`,
    );
  }
}
