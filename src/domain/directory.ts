import type { AppRole } from '../contract/roles';
import type { Label, User } from '../contract';

/** A directory group as the rules see it (`user.groups.direct`). */
export interface DirectoryGroup {
  id: string;
  displayName: string;
}

/** A sensitivity label with who may apply it (`null` = everyone). */
export interface DirectoryLabel extends Label {
  scopeGroupIds: string[] | null;
}

/** A service principal that may be issued app tokens. */
export interface DirectoryApp {
  id: string;
  displayName: string;
  appRoles: AppRole[];
}

/** A person with the app roles the embedded directory assigns them. */
export type DirectoryUser = User & { appRoles: AppRole[] };

/** A person who holds some of the roles asked about, and which. */
export type RoleHolder = User & { roles: AppRole[] };

/**
 * Who holds some roles, as a directory can tell: the embedded one records them (`directory`);
 * with Entra ID, they are read from the app-role assignments of Steward's app registration
 * (`appRoleAssignments`), which Microsoft Graph may refuse (`listed: false` and why).
 */
export type RoleHolders =
  | { listed: true; source: 'directory' | 'appRoleAssignments'; people: RoleHolder[] }
  | { listed: false; source: 'directory' | 'appRoleAssignments'; reason: string };

/** Read access to the tenant's directory, whichever platform holds it (embedded store or Graph). */
export interface DirectoryReader {
  /** A person by object id, UPN or mail. */
  findUser(key: string): Promise<DirectoryUser | undefined>;
  /** Many people by id, UPN or mail; keys that match nobody are absent. */
  findUsers(keys: readonly string[]): Promise<Map<string, User>>;
  /** A page of people whose names, mail or UPN start with `search`. */
  searchUsers(options: {
    search?: string;
    top: number;
    skip: number;
  }): Promise<{ users: User[]; total: number }>;
  /** A person's manager (Graph's `/users/{id}/manager`), or undefined when they have none. */
  managerOf(userId: string): Promise<User | undefined>;
  /**
   * Whether `peopleWithRole` can list who holds a role. Only the embedded directory records roles;
   * with Entra ID they live in each token, so nobody can be listed (and an approval policy that
   * escalates must name its own escalation team).
   */
  readonly listsRoleHolders: boolean;
  /**
   * The people the directory gives `role` (default escalation team: the governance managers);
   * empty where the directory does not list role holders (`listsRoleHolders`).
   */
  peopleWithRole(role: AppRole): Promise<User[]>;
  /**
   * Everyone given any of `roles`, each with the ones they hold, in display-name order (the
   * governance managers and the admins with governance powers, say).
   */
  roleHolders(roles: readonly AppRole[]): Promise<RoleHolders>;
  /** The groups a person is a direct member of. */
  groupsOf(userId: string): Promise<DirectoryGroup[]>;
  /** Every sensitivity label. */
  labels(): Promise<DirectoryLabel[]>;
  /** A service principal by id. */
  findApp(id: string): Promise<DirectoryApp | undefined>;
}
