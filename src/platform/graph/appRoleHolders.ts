import type * as MSGraph from '@microsoft/microsoft-graph-types';
import type { RoleHolder, RoleHolders } from '../../domain/directory';
import { NotFound } from '../../domain/errors';
import { type AppRole, isAppRole } from '../../contract/roles';
import type { User } from '../../contract';
import { PlatformError } from '../port';
import type { GraphClient } from './client';
import { type GraphUser, toUser, USER_FIELDS } from './mapping';
import { odataString, segment } from './paths';

type ServicePrincipal = Pick<MSGraph.ServicePrincipal, 'appRoles'> & { id: string };
type Assignment = Pick<MSGraph.AppRoleAssignment, 'appRoleId' | 'principalId' | 'principalType'>;

// An OData cast on transitiveMembers is an advanced query (`concepts/aad-advanced-queries.md`).
const EVENTUAL = { ConsistencyLevel: 'eventual' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SOURCE = 'appRoleAssignments' as const;

/** What each read needs, for a refusal's message (least privileged first, as Microsoft lists them). */
const NEEDS = {
  app: 'Application.Read.All',
  groups: 'GroupMember.Read.All',
} as const;

/**
 * Who holds Steward's app roles in Entra ID, read from Microsoft Graph: the service principal of the
 * app registration that defines the roles (the one Steward's tokens are issued for), its app-role
 * assignments (`api/serviceprincipal-list-approleassignedto.md`: users, groups and apps assigned to
 * each role), and each assigned group's users, nested groups included
 * (`api/group-list-transitivemembers.md`, cast to `microsoft.graph.user`). Roles that come from
 * directory roles (`wids`: Global and Teams Administrators) are not app-role assignments and are not
 * listed here. A 403 is an answer, not a failure: the tenant did not grant the permission.
 */
export class GraphAppRoleHolders {
  /**
   * @param rolesApp the app registration: its application (client) id, or an Application ID URI
   *   (one of its service principal's `servicePrincipalNames`); undefined when none is configured.
   * @param findUsers people by object id (the directory's `/users?$filter=id in (…)` reads).
   */
  constructor(
    private readonly client: GraphClient,
    private readonly rolesApp: string | undefined,
    private readonly findUsers: (ids: readonly string[]) => Promise<Map<string, User>>,
  ) {}

  /** Everyone assigned any of `roles`, directly or through a group, with the roles they hold. */
  async holders(roles: readonly AppRole[]): Promise<RoleHolders> {
    if (!this.rolesApp) {
      return {
        listed: false,
        source: SOURCE,
        reason:
          'No app registration is configured to read app roles from: set STEWARD_GRAPH_ROLES_APP (or ' +
          'STEWARD_AUTH_MODE=entra, whose STEWARD_AUTH_AUDIENCE names it), or list the governance ' +
          'managers in STEWARD_GOVERNANCE_MANAGERS.',
      };
    }
    const app = await this.refusedAs(NEEDS.app, () => this.servicePrincipal(this.rolesApp!));
    if ('reason' in app) return app;
    if (!app.value) {
      return {
        listed: false,
        source: SOURCE,
        reason: `No service principal in the tenant for the app registration "${this.rolesApp}".`,
      };
    }
    const sp = app.value;
    const wanted = new Map<string, AppRole>();
    for (const role of sp.appRoles ?? []) {
      const value = role.value ?? '';
      if (role.id && role.isEnabled !== false && isAppRole(value) && roles.includes(value))
        wanted.set(role.id, value);
    }
    const assigned = await this.refusedAs(NEEDS.app, () =>
      this.client.list<Assignment>(`/servicePrincipals/${segment(sp.id)}/appRoleAssignedTo?$top=999`),
    );
    if ('reason' in assigned) return assigned;
    const people = new Holders();
    const groups = new Holders();
    for (const assignment of assigned.value) {
      const role = wanted.get(assignment.appRoleId ?? '');
      const principal = assignment.principalId;
      if (!role || !principal) continue;
      if (assignment.principalType === 'User') people.add(principal, [role]);
      else if (assignment.principalType === 'Group') groups.add(principal, [role]);
      // Apps (ServicePrincipal) hold roles too, but nobody can be told anything in a chat with them.
    }
    const details = await this.findUsers([...people.ids()]);
    for (const [groupId, groupRoles] of groups.entries()) {
      const members = await this.refusedAs(NEEDS.groups, () => this.usersIn(groupId));
      if ('reason' in members) return members;
      for (const member of members.value) {
        details.set(member.id, toUser(member));
        people.add(member.id, groupRoles);
      }
    }
    const holders: RoleHolder[] = [];
    for (const [id, held] of people.entries()) {
      const user = details.get(id);
      // Assignments outlive nobody: a user deleted since is simply not found.
      if (user) holders.push({ ...user, roles: roles.filter((r) => held.has(r)) });
    }
    holders.sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id));
    return { listed: true, source: SOURCE, people: holders };
  }

  /** `GET /servicePrincipals(appId='…')` for a client id, else the one whose names include the URI. */
  private async servicePrincipal(app: string): Promise<ServicePrincipal | undefined> {
    const select = '$select=id,appRoles';
    if (GUID.test(app)) {
      return this.client.find<ServicePrincipal>(`/servicePrincipals(appId=${odataString(app)})?${select}`);
    }
    const filter = encodeURIComponent(`servicePrincipalNames/any(n:n eq ${odataString(app)})`);
    const [found] = await this.client.list<ServicePrincipal>(
      `/servicePrincipals?$filter=${filter}&${select}`,
      undefined,
      1,
    );
    return found;
  }

  /** Every user in a group, through nested groups; a group deleted since has none. */
  private async usersIn(groupId: string): Promise<GraphUser[]> {
    try {
      return await this.client.list<GraphUser>(
        `/groups/${segment(groupId)}/transitiveMembers/microsoft.graph.user?$count=true&$top=999&$select=${USER_FIELDS}`,
        EVENTUAL,
      );
    } catch (error) {
      if (error instanceof NotFound) return [];
      throw error;
    }
  }

  /** Runs a read; Graph's 403 becomes the reason nobody is listed, naming the permission it needs. */
  private async refusedAs<T>(
    permission: string,
    read: () => Promise<T>,
  ): Promise<{ value: T } | { listed: false; source: typeof SOURCE; reason: string }> {
    try {
      return { value: await read() };
    } catch (error) {
      if (!(error instanceof PlatformError) || error.status !== 403) throw error;
      return {
        listed: false,
        source: SOURCE,
        reason:
          `Microsoft Graph refused to list who holds Steward's app roles: grant Steward's Graph app ` +
          `the ${permission} application permission, or list the governance managers in ` +
          `STEWARD_GOVERNANCE_MANAGERS. (${error.message})`,
      };
    }
  }
}

/** Roles per principal, in the order principals were first seen. */
class Holders {
  private readonly byId = new Map<string, Set<AppRole>>();

  add(id: string, roles: Iterable<AppRole>): void {
    const held = this.byId.get(id) ?? new Set<AppRole>();
    for (const role of roles) held.add(role);
    this.byId.set(id, held);
  }

  ids(): Iterable<string> {
    return this.byId.keys();
  }

  entries(): Iterable<[string, Set<AppRole>]> {
    return this.byId.entries();
  }
}
