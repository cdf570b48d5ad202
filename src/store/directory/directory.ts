import { type Kysely, sql } from 'kysely';
import type {
  DirectoryApp,
  DirectoryGroup,
  DirectoryLabel,
  DirectoryReader,
  DirectoryUser,
  RoleHolders,
} from '../../domain/directory';
import type { AppRole } from '../../contract/roles';
import type { Label, User } from '../../contract';
import type { Database, DirectoryLabelRow, DirectoryUserRow } from '../schema';

/** Everything written when the directory is seeded or synchronised. */
export interface DirectoryContent {
  users: ReadonlyArray<
    User & { appRoles: readonly AppRole[]; groupIds: readonly string[]; managerId?: string | null }
  >;
  groups: ReadonlyArray<{ id: string; displayName: string; description: string; mailNickname: string }>;
  labels: ReadonlyArray<
    Omit<Label, 'parent'> & { parentId: string | null; scopeGroupIds: readonly string[] | null }
  >;
  apps: ReadonlyArray<DirectoryApp>;
}

/** People, groups, labels and apps of the tenant's directory. */
export class DirectoryRepository implements DirectoryReader {
  /** The embedded directory stores each person's app roles. */
  readonly listsRoleHolders = true;

  constructor(private readonly db: Kysely<Database>) {}

  /** True when no person has been stored yet. */
  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('directory_users').select('id').limit(1).executeTakeFirst();
    return row === undefined;
  }

  /** Writes `content` in one transaction (existing rows with the same ids are replaced). */
  async write(content: DirectoryContent): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const group of content.groups) {
        const row = {
          id: group.id,
          display_name: group.displayName,
          description: group.description,
          mail_nickname: group.mailNickname,
        };
        await trx
          .insertInto('directory_groups')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
      }
      for (const user of content.users) {
        const row = { ...userRow(user, user.appRoles), manager_id: user.managerId ?? null };
        await trx
          .insertInto('directory_users')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
        await trx.deleteFrom('directory_group_members').where('user_id', '=', user.id).execute();
        if (user.groupIds.length > 0) {
          await trx
            .insertInto('directory_group_members')
            .values(user.groupIds.map((groupId) => ({ group_id: groupId, user_id: user.id })))
            .execute();
        }
      }
      for (const [index, label] of content.labels.entries()) {
        const row = {
          id: label.id,
          name: label.name,
          description: label.description,
          color: label.color,
          sensitivity: label.sensitivity,
          tooltip: label.tooltip,
          is_active: label.isActive ? 1 : 0,
          parent_id: label.parentId,
          scope_group_ids: label.scopeGroupIds ? JSON.stringify(label.scopeGroupIds) : null,
          sort_order: index,
        };
        await trx
          .insertInto('directory_labels')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
      }
      for (const app of content.apps) {
        const row = { id: app.id, display_name: app.displayName, app_roles: JSON.stringify(app.appRoles) };
        await trx
          .insertInto('directory_apps')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
      }
    });
  }

  /** Finds a person by object id, UPN or mail (case-insensitive for the last two). */
  async findUser(key: string): Promise<DirectoryUser | undefined> {
    const lower = key.trim().toLowerCase();
    const row = await this.db
      .selectFrom('directory_users')
      .selectAll()
      .where((eb) =>
        eb.or([eb('id', '=', key.trim()), eb('upn_lower', '=', lower), eb('mail_lower', '=', lower)]),
      )
      .orderBy(sql`case when id = ${key.trim()} then 0 else 1 end`)
      .executeTakeFirst();
    return row && { ...toUser(row), appRoles: JSON.parse(row.app_roles) as AppRole[] };
  }

  /** Resolves many keys (ids, UPNs or mails) at once; keys that match nobody are absent from the map. */
  async findUsers(keys: readonly string[]): Promise<Map<string, User>> {
    const found = new Map<string, User>();
    const wanted = [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
    if (wanted.length === 0) return found;
    const lower = wanted.map((k) => k.toLowerCase());
    const rows = await this.db
      .selectFrom('directory_users')
      .selectAll()
      .where((eb) =>
        eb.or([eb('id', 'in', wanted), eb('upn_lower', 'in', lower), eb('mail_lower', 'in', lower)]),
      )
      .execute();
    for (const key of wanted) {
      const k = key.toLowerCase();
      const row = rows.find((r) => r.id === key) ?? rows.find((r) => r.upn_lower === k || r.mail_lower === k);
      if (row) found.set(key, toUser(row));
    }
    return found;
  }

  /** A page of people whose display name, given name, surname, mail or UPN starts with `search`. */
  async searchUsers(options: {
    search?: string;
    top: number;
    skip: number;
  }): Promise<{ users: User[]; total: number }> {
    let query = this.db.selectFrom('directory_users');
    if (options.search) {
      const pattern = `${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or(
          (
            ['display_name_lower', 'given_name_lower', 'surname_lower', 'mail_lower', 'upn_lower'] as const
          ).map((column) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`),
        ),
      );
    }
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('display_name_lower')
        .orderBy('id')
        .limit(options.top)
        .offset(options.skip)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { users: rows.map(toUser), total: Number(count.n) };
  }

  /** The manager of `userId`, when the directory records one. */
  async managerOf(userId: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('directory_users as u')
      .innerJoin('directory_users as m', 'm.id', 'u.manager_id')
      .selectAll('m')
      .where('u.id', '=', userId)
      .executeTakeFirst();
    return row && toUser(row);
  }

  /** The people whose tokens carry `role` in embedded mode (the governance managers, say). */
  async peopleWithRole(role: AppRole): Promise<User[]> {
    const rows = await this.db
      .selectFrom('directory_users')
      .selectAll()
      .where('app_roles', 'like', `%"${role}"%`)
      .orderBy('display_name_lower')
      .execute();
    return rows.filter((r) => (JSON.parse(r.app_roles) as string[]).includes(role)).map(toUser);
  }

  /** Everyone the embedded directory gives any of `roles`, with the ones they hold. */
  async roleHolders(roles: readonly AppRole[]): Promise<RoleHolders> {
    if (roles.length === 0) return { listed: true, source: 'directory', people: [] };
    const rows = await this.db
      .selectFrom('directory_users')
      .selectAll()
      .where((eb) => eb.or(roles.map((role) => eb('app_roles', 'like', `%"${role}"%`))))
      .orderBy('display_name_lower')
      .execute();
    const people = rows.flatMap((row) => {
      const held = (JSON.parse(row.app_roles) as AppRole[]).filter((role) => roles.includes(role));
      return held.length > 0 ? [{ ...toUser(row), roles: held }] : [];
    });
    return { listed: true, source: 'directory', people };
  }

  /** The groups `userId` is a direct member of. */
  async groupsOf(userId: string): Promise<DirectoryGroup[]> {
    const rows = await this.db
      .selectFrom('directory_group_members as m')
      .innerJoin('directory_groups as g', 'g.id', 'm.group_id')
      .select(['g.id', 'g.display_name'])
      .where('m.user_id', '=', userId)
      .orderBy('g.display_name')
      .execute();
    return rows.map((r) => ({ id: r.id, displayName: r.display_name }));
  }

  /** Every sensitivity label, in the order the directory lists them. */
  async labels(): Promise<DirectoryLabel[]> {
    const rows = await this.db.selectFrom('directory_labels').selectAll().orderBy('sort_order').execute();
    return rows.map(toLabel);
  }

  /** A service principal by id. */
  async findApp(id: string): Promise<DirectoryApp | undefined> {
    const row = await this.db
      .selectFrom('directory_apps')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && { id: row.id, displayName: row.display_name, appRoles: JSON.parse(row.app_roles) as AppRole[] }
    );
  }
}

function userRow(user: User, appRoles: readonly AppRole[]): DirectoryUserRow {
  return {
    id: user.id,
    display_name: user.displayName,
    given_name: user.givenName,
    surname: user.surname,
    mail: user.mail,
    user_principal_name: user.userPrincipalName,
    job_title: user.jobTitle,
    department: user.department,
    company_name: user.companyName,
    country: user.country,
    city: user.city,
    usage_location: user.usageLocation,
    preferred_language: user.preferredLanguage,
    app_roles: JSON.stringify(appRoles),
    display_name_lower: user.displayName.toLowerCase(),
    given_name_lower: (user.givenName ?? '').toLowerCase(),
    surname_lower: (user.surname ?? '').toLowerCase(),
    mail_lower: (user.mail ?? '').toLowerCase(),
    upn_lower: user.userPrincipalName.toLowerCase(),
  };
}

function toUser(row: DirectoryUserRow): User {
  return {
    id: row.id,
    displayName: row.display_name,
    givenName: row.given_name,
    surname: row.surname,
    mail: row.mail,
    userPrincipalName: row.user_principal_name,
    jobTitle: row.job_title,
    department: row.department,
    companyName: row.company_name,
    country: row.country,
    city: row.city,
    usageLocation: row.usage_location,
    preferredLanguage: row.preferred_language,
  };
}

function toLabel(row: DirectoryLabelRow): DirectoryLabel {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    color: row.color,
    sensitivity: Number(row.sensitivity),
    tooltip: row.tooltip,
    isActive: Number(row.is_active) === 1,
    parent: row.parent_id,
    scopeGroupIds: row.scope_group_ids ? (JSON.parse(row.scope_group_ids) as string[]) : null,
  };
}
