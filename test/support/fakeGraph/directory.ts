import { displayNameRefusal, fail, type Json, parseFilter, type Reply, unquote } from './protocol';
import { type ParsedRequest, GROUP_REQUEST_PEOPLE } from './records';
import { Representations } from './representations';

/** Users, their groups, and Microsoft 365 groups (`api/group-post-groups.md`, `api/group-upsert.md`, `api/group-update.md`). */
export abstract class DirectoryApi extends Representations {
  /** Each person's manager (user id → manager's id), as `/users/{id}/manager` answers it. */
  readonly managers = new Map<string, string>();

  protected listUsers(request: ParsedRequest): Reply {
    const query = request.url.searchParams;
    const advanced = query.has('$count') || query.has('$orderby') || query.has('$search');
    if (advanced && request.headers.consistencylevel !== 'eventual') {
      return fail(
        400,
        'Request_UnsupportedQuery',
        'Unsupported query: ConsistencyLevel eventual is required.',
      );
    }
    let users = [...this.users.values()];
    const filter = query.get('$filter');
    if (filter) {
      const test = parseFilter(filter);
      users = users.filter((u) => test(u as unknown as Json));
    }
    if (query.get('$orderby') === 'displayName')
      users.sort((a, b) => a.displayName.localeCompare(b.displayName));
    return this.collection(
      request,
      users.map((u) => this.userJson(request, u)),
    );
  }

  /**
   * `GET /users/{id}/manager` (`api/user-list-manager.md`): the manager as a directory object
   * (`@odata.type` says which kind), `$select` honoured; 404 when the person has none.
   */
  protected getManager(request: ParsedRequest, userId: string): Reply {
    const managerId = this.managers.get(this.user(userId).id);
    if (!managerId) {
      return fail(
        404,
        'Request_ResourceNotFound',
        "Resource 'manager' does not exist or one of its queried reference-property objects are not present.",
      );
    }
    const manager = this.userJson(request, this.user(managerId));
    return { status: 200, body: { '@odata.type': '#microsoft.graph.user', ...manager } };
  }

  protected listMemberOf(request: ParsedRequest, userId: string): Reply {
    this.user(userId);
    return this.collection(request, this.memberOf.get(userId) ?? []);
  }

  protected upsertGroup(request: ParsedRequest, literal: string): Reply {
    const uniqueName = unquote(literal);
    const existing = [...this.groups.values()].find((g) => g.uniqueName === uniqueName);
    if (existing) return this.patchGroup(request, existing.id);
    if (request.headers.prefer !== 'create-if-missing')
      return fail(404, 'Request_ResourceNotFound', 'No such group.');
    const body = request.body;
    for (const field of ['displayName', 'mailNickname', 'mailEnabled', 'securityEnabled']) {
      if (body[field] === undefined)
        return fail(400, 'Request_BadRequest', `Property '${field}' is required.`);
    }
    const tooLong = displayNameRefusal(body.displayName);
    if (tooLong) return tooLong;
    if ([...this.groups.values()].some((g) => g.mailNickname === body.mailNickname)) {
      return fail(
        400,
        'Request_BadRequest',
        'Another object with the same value for property mailNickname already exists.',
      );
    }
    const people =
      ((body['owners@odata.bind'] as unknown[] | undefined) ?? []).length +
      ((body['members@odata.bind'] as unknown[] | undefined) ?? []).length;
    if (people > GROUP_REQUEST_PEOPLE) {
      return fail(
        400,
        'Request_BadRequest',
        `A group request takes at most ${GROUP_REQUEST_PEOPLE} owners and members.`,
      );
    }
    const group = this.newGroup({
      displayName: String(body.displayName),
      description: typeof body.description === 'string' ? body.description : null,
      mailNickname: String(body.mailNickname),
      visibility: body.visibility === 'Public' ? 'Public' : 'Private',
    });
    group.uniqueName = uniqueName;
    const replication = (this.options.groupReplicationMs ?? 0) * (this.options.scale ?? 1);
    if (replication > 0) group.visibleAt = Date.now() + replication * (this.options.random ?? Math.random)();
    for (const bind of (body['owners@odata.bind'] as string[] | undefined) ?? [])
      group.ownerIds.add(this.userFromBind(bind));
    for (const bind of (body['members@odata.bind'] as string[] | undefined) ?? [])
      group.memberIds.add(this.userFromBind(bind));
    return { status: 201, body: this.groupJson(group) };
  }

  protected groupByUniqueName(request: ParsedRequest, literal: string): Reply {
    const group = [...this.groups.values()].find((g) => g.uniqueName === unquote(literal));
    return group && !this.replicating(group)
      ? { status: 200, body: this.groupJson(group) }
      : fail(404, 'Request_ResourceNotFound', 'No such group.');
  }

  protected listGroups(request: ParsedRequest): Reply {
    const filter = request.url.searchParams.get('$filter');
    const test = filter ? parseFilter(filter) : () => true;
    return this.collection(request, [...this.groups.values()].map((g) => this.groupJson(g)).filter(test));
  }

  protected patchGroup(request: ParsedRequest, id: string): Reply {
    const group = this.group(id);
    const body = request.body;
    const tooLong = displayNameRefusal(body.displayName);
    if (tooLong) return tooLong;
    if (typeof body.displayName === 'string') group.displayName = body.displayName;
    if (typeof body.description === 'string') group.description = body.description;
    if (body.visibility === 'Public' || body.visibility === 'Private') group.visibility = body.visibility;
    if (body.classification !== undefined) group.classification = body.classification as string | null;
    if (Array.isArray(body.assignedLabels)) {
      const labels = body.assignedLabels as Array<{ labelId?: string }>;
      if (labels.some((l) => !this.labels.some((known) => known.id === l.labelId))) {
        return fail(400, 'Request_BadRequest', 'The sensitivity label is not valid.');
      }
      group.assignedLabels = labels.map((l) => ({ labelId: String(l.labelId) }));
    }
    return { status: 204 };
  }

  protected deleteGroup(id: string): Reply {
    this.group(id);
    this.groups.delete(id);
    this.teams.delete(id);
    return { status: 204 };
  }

  protected addExtension(request: ParsedRequest, groupId: string): Reply {
    const group = this.group(groupId);
    const name = String(request.body.extensionName ?? '');
    if (group.extensions.has(name))
      return fail(409, 'NameAlreadyExists', 'An extension already exists with given id.');
    const { extensionName: _name, ...rest } = request.body;
    const extension = {
      ...rest,
      '@odata.type': '#microsoft.graph.openTypeExtension',
      id: name,
      extensionName: name,
    };
    group.extensions.set(name, extension);
    return { status: 201, body: extension };
  }

  protected getExtension(groupId: string, name: string): Reply {
    const extension = this.group(groupId).extensions.get(name);
    return extension
      ? { status: 200, body: extension }
      : fail(404, 'ResourceNotFound', 'Extension not found.');
  }
}
