import { BoundedCache } from '../../lib/boundedCache';
import type { Caller } from '../../domain/caller';
import type { SubscriberStanding } from '../../domain/hookAudience';
import type { DirectoryReader, DirectoryUser } from '../../domain/directory';
import { ValidationFailed } from '../../domain/errors';
import type { AppRole } from '../../contract/roles';
import { labelFullName } from '../../domain/labels';
import type { Label, PermanentMember, User } from '../../contract';

/** The attributes audience rules and naming conventions see as `user`. */
export interface RuleSubject {
  user: Partial<User> & {
    groups: { direct: Array<{ id: string; displayName: string; '@odata.type': '#microsoft.graph.group' }> };
  };
}

const SUBJECT_CACHE_LIMIT = 10_000;

/** People, groups and labels of the tenant, as callers are allowed to see them. */
export class DirectoryService {
  private readonly subjects = new BoundedCache<string, RuleSubject>(SUBJECT_CACHE_LIMIT);
  private readonly people = new BoundedCache<string, { user: DirectoryUser | undefined }>(
    SUBJECT_CACHE_LIMIT,
  );

  /**
   * @param subjectTtlMs how long a caller's directory entry and rule subject are reused: audience
   *   targeting sees directory changes (departments, group membership), and authentication sees
   *   people removed, after at most this long.
   */
  constructor(
    private readonly directory: DirectoryReader,
    private readonly subjectTtlMs = 30_000,
    /** Steward's clock (epoch ms), which tests move past `subjectTtlMs`. */
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Whether `id` is the object id of a person in the directory, spelt exactly as the directory
   * spells it (not a UPN or a mail that happens to find one, nor another casing of the id, which
   * the rest of Steward would take for somebody else when it compares requesters and approvers).
   */
  async isPerson(id: string): Promise<boolean> {
    const user = await this.person(id);
    return user !== undefined && user.id === id;
  }

  /**
   * What the directory says of `id` now, for what is done later in their name (a webhook's
   * deliveries): whether they are still a person of it (`isPerson`) and, where the directory
   * records app roles (embedded), which they hold. Cached like `isPerson`: one lookup per person.
   */
  async standing(id: string): Promise<SubscriberStanding> {
    const user = await this.person(id);
    if (user === undefined || user.id !== id) return { person: false, roles: undefined };
    return { person: true, roles: this.directory.listsRoleHolders ? user.appRoles : undefined };
  }

  /**
   * The directory entry of `id`, reused for `subjectTtlMs` whether found or not; the cache is
   * bounded, so a flood of made-up ids costs one lookup each and cannot grow memory.
   */
  private async person(id: string): Promise<DirectoryUser | undefined> {
    const key = id.toLowerCase();
    const cached = this.people.get(key, this.clock());
    if (cached) return cached.user;
    const user = await this.directory.findUser(id);
    this.people.set(key, { user }, this.clock() + this.subjectTtlMs);
    return user;
  }

  /** A person's manager, when the directory records one. */
  managerOf(userId: string): Promise<User | undefined> {
    return this.directory.managerOf(userId);
  }

  /** Whether the directory can list who holds a role (see `DirectoryReader.listsRoleHolders`). */
  get listsRoleHolders(): boolean {
    return this.directory.listsRoleHolders;
  }

  /** The people the directory gives `role` (see `DirectoryReader.peopleWithRole`). */
  peopleWithRole(role: AppRole): Promise<User[]> {
    return this.directory.peopleWithRole(role);
  }

  /** People by id, UPN or mail; keys that match nobody are absent. */
  findPeople(keys: readonly string[]): Promise<Map<string, User>> {
    return this.directory.findUsers(keys);
  }

  /** A page of the directory, optionally filtered by a name, mail or UPN prefix. */
  searchUsers(options: {
    search?: string;
    top: number;
    skip: number;
  }): Promise<{ users: User[]; total: number }> {
    return this.directory.searchUsers(options);
  }

  /** Every sensitivity label of the tenant, active or not. */
  allLabels(): Promise<Label[]> {
    return this.directory.labels();
  }

  /** The active labels the caller may apply: unscoped ones, and those scoped to one of their groups. */
  async labelsFor(caller: Caller): Promise<Label[]> {
    const [labels, groups] = await Promise.all([this.directory.labels(), this.directory.groupsOf(caller.id)]);
    const groupIds = new Set(groups.map((g) => g.id));
    return labels
      .filter(
        (l) => l.isActive && (l.scopeGroupIds === null || l.scopeGroupIds.some((id) => groupIds.has(id))),
      )
      .map(({ scopeGroupIds: _scope, ...label }) => ({ ...label, fullName: labelFullName(label, labels) }));
  }

  /**
   * What rules know about the caller: their directory entry and direct groups, or, for someone
   * the directory does not know, just what the token says.
   */
  async ruleSubject(caller: Pick<Caller, 'id' | 'name' | 'upn'>): Promise<RuleSubject> {
    const cached = this.subjects.get(caller.id, this.clock());
    if (cached) return cached;
    const subject = await this.loadRuleSubject(caller);
    this.subjects.set(caller.id, subject, this.clock() + this.subjectTtlMs);
    return subject;
  }

  private async loadRuleSubject(caller: Pick<Caller, 'id' | 'name' | 'upn'>): Promise<RuleSubject> {
    const [user, groups] = await Promise.all([this.person(caller.id), this.directory.groupsOf(caller.id)]);
    const base: Partial<User> = user
      ? stripRoles(user)
      : {
          id: caller.id,
          displayName: caller.name ?? '',
          userPrincipalName: caller.upn ?? '',
          mail: caller.upn ?? null,
        };
    return {
      user: {
        ...base,
        groups: {
          direct: groups.map((g) => ({
            id: g.id,
            displayName: g.displayName,
            '@odata.type': '#microsoft.graph.group',
          })),
        },
      },
    };
  }

  /**
   * Resolves user references (id, UPN or mail) to `{id, name}` with the directory's object id and
   * display name; every reference that matches nobody is reported under `target[index].id`.
   */
  async resolveMembers(members: readonly { id: string }[], target: string): Promise<PermanentMember[]> {
    const found = await this.directory.findUsers(members.map((m) => m.id));
    const details = members.flatMap((m, index) =>
      found.has(m.id.trim())
        ? []
        : [
            {
              code: 'unknownUser' as const,
              target: `${target}[${index}].id`,
              message: `No user "${m.id}" in the directory.`,
            },
          ],
    );
    if (details.length > 0) throw new ValidationFailed('Some users are not in the directory.', details);
    const unique = new Map<string, PermanentMember>();
    for (const m of members) {
      const user = found.get(m.id.trim())!;
      unique.set(user.id, { id: user.id, name: user.displayName });
    }
    return [...unique.values()];
  }
}

function stripRoles(user: User & { appRoles?: unknown }): User {
  const { appRoles: _roles, ...rest } = user;
  return rest;
}
