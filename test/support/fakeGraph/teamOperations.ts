import { randomBytes, randomUUID } from 'node:crypto';
import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { displayNameRefusal, fail, type Json, type Reply, settingsIn } from './protocol';
import { type OperationRecord, type ParsedRequest, PARTS } from './records';
import { AppCatalogApi } from './appCatalog';

/** Teams and their asynchronous operations (`api/team-post.md`, `api/team-clone.md`, `api/team-archive.md`, `resources/teamsasyncoperation.md`). */
export abstract class TeamsApi extends AppCatalogApi {
  /** The next asynchronous operation ends `failed` with this message. */
  failNextOperation(message: string): void {
    this.nextOperationFailure = message;
  }

  /** Ends every pending operation now, as Graph does on its own while nobody is polling. */
  settle(): void {
    for (const operation of this.operations.values()) {
      if (operation.status === 'notStarted' || operation.status === 'inProgress') this.complete(operation);
    }
  }

  /** `GET /teams`: like Graph v1.0, only id, displayName and description are filled in; the rest is null. */
  protected listTeams(request: ParsedRequest): Reply {
    const items = [...this.teams.values()].map((team) => {
      const full = this.teamJson(team);
      return Object.fromEntries(
        Object.entries(full).map(([key, value]) => [
          key,
          ['id', 'displayName', 'description'].includes(key) ? value : null,
        ]),
      ) as Json;
    });
    return this.collection(request, items);
  }

  protected createTeam(request: ParsedRequest): Reply {
    const body = request.body;
    if (!/\/teamsTemplates\('standard'\)$/.test(String(body['template@odata.bind'] ?? ''))) {
      return fail(400, 'BadRequest', 'A template binding is required.');
    }
    const groupBind = /\/groups\('([^']+)'\)$/.exec(String(body['group@odata.bind'] ?? ''));
    if (!groupBind) return fail(400, 'BadRequest', 'This fake creates teams from groups only.');
    for (const field of ['displayName', 'visibility', 'specialization', 'members@odata.bind', 'members']) {
      if (body[field] !== undefined)
        return fail(400, 'BadRequest', `'${field}' cannot be set when creating from a group.`);
    }
    if (this.replicationDelays > 0) {
      this.replicationDelays--;
      return fail(404, 'NotFound', 'Failed to execute request: group not found (replication).');
    }
    const group = this.group(decodeURIComponent(groupBind[1] ?? ''));
    // `api/team-post.md`: a group made less than 15 minutes ago may not have reached Teams yet.
    if (this.replicating(group))
      return fail(404, 'NotFound', `Failed to execute request: group ${group.id} not found (replication).`);
    if (group.ownerIds.size === 0) return fail(400, 'BadRequest', 'The group must have at least one owner.');
    const pending = [...this.operations.values()].some(
      (o) => o.targetResourceId === group.id && o.status !== 'failed',
    );
    if (this.teams.has(group.id) || pending)
      return fail(409, 'Conflict', 'A team already exists for this group.');
    const settings = settingsIn(body);
    return this.accepted(
      group.id,
      'createTeam',
      group.id,
      () => void this.newTeam(group, settings),
      group.id,
    );
  }

  protected cloneTeam(request: ParsedRequest, sourceId: string): Reply {
    const source = this.team(sourceId);
    const body = request.body;
    if (typeof body.partsToClone !== 'string')
      return fail(400, 'BadRequest', 'partsToClone must be a string of flags.');
    const parts = body.partsToClone.split(',').map((p) => p.trim());
    if (parts.some((p) => !PARTS.includes(p)))
      return fail(400, 'BadRequest', `Unknown part in '${body.partsToClone}'.`);
    if (typeof body.mailNickname !== 'string' || typeof body.displayName !== 'string') {
      return fail(400, 'BadRequest', 'displayName and mailNickname are required.');
    }
    const tooLong = displayNameRefusal(body.displayName, 'BadRequest');
    if (tooLong) return tooLong;
    // team-clone.md: mailNickname is "currently ignored"; Graph makes up the alias.
    const group = this.newGroup({
      displayName: body.displayName,
      description: typeof body.description === 'string' ? body.description : null,
      mailNickname: `${body.displayName.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}${randomBytes(3).toString('hex')}`,
      visibility: body.visibility === 'public' ? 'Public' : 'Private',
    });
    const finish = () => {
      const team = this.newTeam(group, parts.includes('settings') ? structuredClone(source.settings) : {});
      if (parts.includes('members')) team.members = source.members.map((m) => ({ ...m, id: randomUUID() }));
      if (parts.includes('channels')) {
        for (const channel of source.channels.slice(1)) {
          const copy = this.newChannel(channel.displayName, channel.description, channel.membershipType);
          if (parts.includes('tabs')) copy.tabs = channel.tabs.map((t) => ({ ...t, id: randomUUID() }));
          team.channels.push(copy);
        }
      }
    };
    return this.accepted(sourceId, 'cloneTeam', group.id, finish, group.id);
  }

  protected archive(request: ParsedRequest, teamId: string, verb: string): Reply {
    const team = this.team(teamId);
    const readOnly = request.body.shouldSetSpoSiteReadOnlyForMembers === true;
    return this.accepted(teamId, verb === 'archive' ? 'archiveTeam' : 'unarchiveTeam', teamId, () => {
      team.isArchived = verb === 'archive';
      team.siteReadOnlyForMembers = verb === 'archive' && readOnly;
    });
  }

  protected accepted(
    pathTeamId: string,
    type: MSGraph.TeamsAsyncOperationType,
    target: string,
    finish: () => void,
    contentTeam?: string,
  ): Reply {
    const operation: OperationRecord = {
      id: randomUUID(),
      teamId: pathTeamId,
      operationType: type,
      createdDateTime: new Date().toISOString(),
      pendingPolls: this.operationPolls,
      readyAt: Date.now() + this.drawLatency(),
      polls: 0,
      failure: this.nextOperationFailure,
      targetResourceId: target,
      finish,
      status: 'notStarted',
    };
    this.nextOperationFailure = undefined;
    this.operations.set(operation.id, operation);
    const headers: Record<string, string> = {
      location: `/teams('${pathTeamId}')/operations('${operation.id}')`,
    };
    headers['content-location'] = `/teams('${contentTeam ?? pathTeamId}')`;
    return { status: 202, headers };
  }

  protected operation(teamId: string, operationId: string): Reply {
    const operation = this.operations.get(operationId);
    if (!operation || operation.teamId !== teamId) return fail(404, 'NotFound', 'Operation not found.');
    operation.polls++;
    if (operation.status === 'notStarted' || operation.status === 'inProgress') {
      if (operation.polls > operation.pendingPolls && Date.now() >= operation.readyAt) {
        this.complete(operation);
      } else if (operation.polls > 1) {
        operation.status = 'inProgress';
      }
    }
    const pending = operation.status === 'notStarted' || operation.status === 'inProgress';
    const retryAfter = this.options.operationRetryAfter;
    return {
      status: 200,
      headers: pending && retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {},
      body: {
        id: operation.id,
        operationType: operation.operationType,
        createdDateTime: operation.createdDateTime,
        status: operation.status,
        lastActionDateTime: new Date().toISOString(),
        attemptsCount: 1,
        targetResourceId: operation.targetResourceId,
        targetResourceLocation:
          operation.operationType === 'createChannel'
            ? `/teams('${operation.teamId}')/channels('${operation.targetResourceId}')`
            : `/teams('${operation.targetResourceId}')`,
        error: operation.status === 'failed' ? { code: 'BadRequest', message: operation.failure } : null,
      } satisfies MSGraph.TeamsAsyncOperation,
    };
  }

  /** Ends an operation; a team it made is not visible until Graph has replicated it. */
  protected complete(operation: OperationRecord): void {
    operation.status = operation.failure ? 'failed' : 'succeeded';
    if (operation.failure) return;
    operation.finish();
    const team = this.teams.get(operation.targetResourceId);
    const replication = (this.options.replicationMs ?? 0) * (this.options.scale ?? 1);
    if (team && operation.operationType !== 'archiveTeam' && operation.operationType !== 'unarchiveTeam') {
      team.visibleAt = Date.now() + replication;
    }
  }

  /** An operation's duration: uniform between the latency bounds, scaled. */
  protected drawLatency(): number {
    const latency = this.options.latency;
    if (!latency) return 0;
    const drawn = latency.minMs + Math.random() * (latency.maxMs - latency.minMs);
    return drawn * (this.options.scale ?? 1);
  }

  /** v1.0's team update (`api/team-update.md`): its team has no `discoverySettings`, which is refused. */
  protected patchTeam(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    if ('discoverySettings' in request.body)
      return fail(400, 'BadRequest', "Invalid property 'discoverySettings' on type 'microsoft.graph.team'.");
    for (const [name, value] of Object.entries(settingsIn(request.body))) {
      team.settings[name] = { ...team.settings[name], ...value };
    }
    return { status: 204 };
  }

  /**
   * Beta's team update (`beta/api/team-update.md`), the one beta path the simulator knows: it
   * takes `discoverySettings` too (`beta/resources/teamdiscoverysettings.md`,
   * `showInTeamsSearchAndSuggestions`: "You can only modify discovery settings for private teams",
   * so a public team's are refused with 400).
   */
  protected patchBetaTeam(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    if ('discoverySettings' in request.body && this.group(teamId).visibility !== 'Private')
      return fail(400, 'BadRequest', 'Discovery settings can be modified only for private teams.');
    for (const [name, value] of Object.entries(settingsIn(request.body))) {
      team.settings[name] = { ...team.settings[name], ...value };
    }
    return { status: 204 };
  }
}
