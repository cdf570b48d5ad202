import { NotFound } from '../../domain/errors';
import type {
  DirectoryApp,
  DirectoryGroup,
  DirectoryLabel,
  DirectoryReader,
  DirectoryUser,
  RoleHolders,
} from '../../domain/directory';
import type { AppRole } from '../../contract/roles';
import type { User } from '../../contract';
import { PlatformError } from '../port';
import { GraphAppRoleHolders } from './appRoleHolders';
import type { GraphClient } from './client';
import { type GraphLabel, type GraphUser, toLabels, toUser, USER_FIELDS } from './mapping';
import { odataString, segment } from './paths';

// Graph's advanced queries ($count, $orderby with $filter) need this header.
const EVENTUAL = { ConsistencyLevel: 'eventual' };
// Graph caps the values of one `in (...)` filter at 15.
const IN_CHUNK = 15;
const SEARCH_FIELDS = ['displayName', 'givenName', 'surname', 'mail', 'userPrincipalName'];

/**
 * The tenant's directory read from Microsoft Graph: people, their groups and the published
 * sensitivity labels. With Entra ID, the API trusts the roles inside each token, so a person's
 * `appRoles` is always empty and `findApp` knows no app; who holds a role is read, when asked, from
 * the app-role assignments of Steward's app registration (`roleHolders`), which needs a permission
 * a tenant may not grant.
 */
export class GraphDirectory implements DirectoryReader {
  /**
   * Approval escalations cannot count on Graph to list the governance managers (the permission may
   * be missing), so their policies name their own escalation team.
   */
  readonly listsRoleHolders = false;
  private readonly appRoles: GraphAppRoleHolders;

  /**
   * @param rolesApp the app registration whose app roles Steward's tokens carry (client id or
   *   Application ID URI), for `roleHolders`.
   */
  constructor(
    private readonly client: GraphClient,
    rolesApp?: string,
  ) {
    this.appRoles = new GraphAppRoleHolders(client, rolesApp, (ids) => this.findUsers(ids));
  }

  /** A person by object id or UPN (`GET /users/{key}`), else by mail. */
  async findUser(key: string): Promise<DirectoryUser | undefined> {
    const k = key.trim();
    if (!k) return undefined;
    let user = await this.byIdOrUpn(k);
    if (!user && k.includes('@')) {
      const filter = encodeURIComponent(`mail eq ${odataString(k)}`);
      [user] = await this.client.list<GraphUser>(
        `/users?$filter=${filter}&$select=${USER_FIELDS}`,
        undefined,
        1,
      );
    }
    return user && { ...toUser(user), appRoles: [] };
  }

  /** Resolves ids, UPNs and mails in batches of `in (...)` filters. */
  async findUsers(keys: readonly string[]): Promise<Map<string, User>> {
    const wanted = [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
    const found = new Map<string, User>();
    const ids = wanted.filter((k) => !k.includes('@') && /^[0-9a-f-]{1,64}$/i.test(k));
    const addresses = wanted.filter((k) => k.includes('@'));

    for (const user of await this.filterIn('id', ids)) {
      for (const key of ids) if (key.toLowerCase() === user.id.toLowerCase()) found.set(key, toUser(user));
    }
    for (const user of await this.filterIn('userPrincipalName', addresses)) {
      const upn = (user.userPrincipalName ?? '').toLowerCase();
      for (const key of addresses) if (key.toLowerCase() === upn) found.set(key, toUser(user));
    }
    const byMail = addresses.filter((k) => !found.has(k));
    for (const user of await this.filterIn('mail', byMail)) {
      const mail = typeof user.mail === 'string' ? user.mail.toLowerCase() : '';
      for (const key of byMail) if (key.toLowerCase() === mail) found.set(key, toUser(user));
    }
    return found;
  }

  /**
   * A page of people whose display name, given name, surname, mail or UPN starts with `search`,
   * in display-name order. Graph has no `$skip` for users, so the pages before `skip` are read and
   * dropped; people pickers ask for the first pages.
   */
  async searchUsers(options: { search?: string; top: number; skip: number }): Promise<{
    users: User[];
    total: number;
  }> {
    const want = options.skip + options.top;
    const query = [`$select=${USER_FIELDS}`, '$count=true', '$orderby=displayName'];
    query.push(`$top=${Math.min(999, Math.max(1, want))}`);
    const search = options.search?.trim();
    if (search) {
      const filter = SEARCH_FIELDS.map((field) => `startsWith(${field},${odataString(search)})`).join(' or ');
      query.push(`$filter=${encodeURIComponent(filter)}`);
    }
    const page = await this.client.page<GraphUser>(`/users?${query.join('&')}`, EVENTUAL, Math.max(1, want));
    return {
      users: page.items.slice(options.skip, want).map(toUser),
      total: page.count ?? page.items.length,
    };
  }

  /**
   * A person's manager (`GET /users/{id}/manager`, `api/user-list-manager.md`): a directory object,
   * a user in practice; Graph answers 404 when the person has no manager.
   */
  async managerOf(userId: string): Promise<User | undefined> {
    const manager = await this.client.find<GraphUser & { '@odata.type'?: string }>(
      `/users/${segment(userId)}/manager?$select=${USER_FIELDS}`,
    );
    // The manager may be an organisational contact rather than a user: no approver then.
    const isUser = !manager?.['@odata.type'] || manager['@odata.type'] === '#microsoft.graph.user';
    return manager && isUser ? toUser(manager) : undefined;
  }

  /** Nobody for approval escalations, which name their own team with Graph (see `listsRoleHolders`). */
  async peopleWithRole(_role: AppRole): Promise<User[]> {
    return [];
  }

  /** Who is assigned any of `roles` in Entra ID (see `GraphAppRoleHolders`). */
  roleHolders(roles: readonly AppRole[]): Promise<RoleHolders> {
    return this.appRoles.holders(roles);
  }

  /** The groups (not directory roles or administrative units) a person is a direct member of. */
  async groupsOf(userId: string): Promise<DirectoryGroup[]> {
    let objects: Array<{ '@odata.type'?: string; id: string; displayName?: string | null }>;
    try {
      objects = await this.client.list(`/users/${segment(userId)}/memberOf?$select=id,displayName`);
    } catch (error) {
      if (error instanceof NotFound) return [];
      throw error;
    }
    return objects
      .filter((o) => o['@odata.type'] === '#microsoft.graph.group')
      .map((o) => ({ id: o.id, displayName: o.displayName ?? '' }))
      .sort((a, b) => a.displayName.localeCompare(b.displayName));
  }

  /**
   * The tenant's sensitivity labels that can be put on a team (Microsoft 365 group), from v1.0's
   * `dataSecurityAndGovernance` (`api/sensitivitylabel-get.md`); the older
   * `/security/informationProtection/sensitivityLabels` exists only in beta.
   */
  async labels(): Promise<DirectoryLabel[]> {
    const labels = await this.client.list<GraphLabel>(
      '/security/dataSecurityAndGovernance/sensitivityLabels',
    );
    const teamable = (list: readonly GraphLabel[]): GraphLabel[] =>
      list.filter(appliesToTeams).map((label) => ({ ...label, sublabels: teamable(label.sublabels ?? []) }));
    return toLabels(teamable(labels));
  }

  /** Apps are not looked up in Graph mode (see the class comment). */
  async findApp(_id: string): Promise<DirectoryApp | undefined> {
    return undefined;
  }

  private async byIdOrUpn(key: string): Promise<GraphUser | undefined> {
    try {
      return await this.client.find<GraphUser>(`/users/${segment(key)}?$select=${USER_FIELDS}`);
    } catch (error) {
      // A key that is neither an object id nor a UPN is a 400 to Graph; to us it names nobody.
      if (error instanceof NotFound || (error instanceof PlatformError && error.status === 400))
        return undefined;
      throw error;
    }
  }

  private async filterIn(field: string, values: readonly string[]): Promise<GraphUser[]> {
    const users: GraphUser[] = [];
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const list = values
        .slice(i, i + IN_CHUNK)
        .map(odataString)
        .join(',');
      const filter = encodeURIComponent(`${field} in (${list})`);
      users.push(...(await this.client.list<GraphUser>(`/users?$filter=${filter}&$select=${USER_FIELDS}`)));
    }
    return users;
  }
}

/** Labels scoped to files or mail only cannot be put on a group; without `applicableTo`, assume they can. */
function appliesToTeams(label: GraphLabel): boolean {
  const targets = label.applicableTo;
  if (typeof targets !== 'string' || targets.trim() === '') return true;
  return /\b(unifiedGroup|teamwork)\b/i.test(targets);
}
