import { randomUUID } from 'node:crypto';
import { permitted } from './permitted';
import { fail, type Json, type Reply } from './protocol';
import type { GroupRecord, Handler, ParsedRequest } from './records';

/**
 * Viva Engage communities, as Microsoft Graph v1.0 documents them
 * (microsoftgraph/microsoft-graph-docs-contrib, api-reference/v1.0/):
 *
 * - `POST /employeeExperience/communities` (`api/employeeexperience-post-communities.md`): a
 *   `displayName` of at most 255 characters, a `description` of at most 1 024, a `privacy` of
 *   `public` or `private` (`resources/community.md`; every example sends it and no default is
 *   documented, so the fake requires it); with an app's token `owners@odata.bind` is
 *   required ("If the owners property isn't specified in the request body, the request fails"), at
 *   most 100 of them ("Limited to 100 users"). It answers `202 Accepted` with no body and an
 *   `Operation-Location` header naming an engagementAsyncOperation.
 * - `GET /employeeExperience/engagementAsyncOperations/{id}` (`api/engagementasyncoperation-get.md`):
 *   `notStarted`, `running`, then `succeeded` with `resourceId` and `resourceLocation`
 *   (`resources/longrunningoperation.md`). Microsoft asks callers to wait more than 30 seconds
 *   between checks (`resources/engagement-api-overview.md`); Graph does not refuse sooner polls, so
 *   the fake answers them too and counts them (`pollsTooSoon`), for tests to hold Steward to it.
 * - The community is made with its own Microsoft 365 group, whose id is not the community's
 *   (`resources/community.md`: `groupId`); owners are the group's owners and members.
 * - `GET`, `PATCH` (204) and `DELETE` (204, the group with it:
 *   `api/community-delete.md`) of `/employeeExperience/communities/{id}`; the list.
 *
 * Reads need `Community.Read.All` or `Community.ReadWrite.All`, writes the latter; without, Graph's
 * 403 `Authorization_RequestDenied`.
 */
export class CommunitiesFake {
  /** Microsoft's interval between two checks of an operation ("wait >30 seconds"). */
  static readonly POLL_INTERVAL_MS = 30_000;

  readonly communities = new Map<string, CommunityRecord>();
  readonly operations = new Map<string, EngagementOperation>();
  /** Checks of an operation that came less than `POLL_INTERVAL_MS` (scaled) after the previous one. */
  pollsTooSoon = 0;

  constructor(
    private readonly tenant: {
      newGroup(
        fields: Pick<GroupRecord, 'displayName' | 'description' | 'mailNickname' | 'visibility'>,
      ): GroupRecord;
      deleteGroup(id: string): void;
      /** A user's id from an `@odata.bind` URL; throws Graph's 400 for an unknown one. */
      userFromBind(bind: string): string;
      collection(request: ParsedRequest, items: Json[]): Reply;
      /** How long an operation takes (scaled). */
      latencyMs(): number;
      /** Multiplies Microsoft's intervals, as it does every latency. */
      scale: number;
      origin(): string;
      granted: ReadonlySet<string>;
    },
  ) {}

  /** The routes the server adds to its own, each checked against the app's permissions. */
  routes(): Array<[string, RegExp, Handler]> {
    const id = '([^/]+)';
    const read = ['Community.Read.All', 'Community.ReadWrite.All'];
    const write = ['Community.ReadWrite.All'];
    const routes: Array<[string, RegExp, string[], Handler]> = [
      ['POST', /^\/employeeExperience\/communities$/, write, (r) => this.create(r)],
      ['GET', /^\/employeeExperience\/communities$/, read, (r) => this.list(r)],
      ['GET', new RegExp(`^/employeeExperience/communities/${id}$`), read, (r, c) => this.get(c)],
      ['PATCH', new RegExp(`^/employeeExperience/communities/${id}$`), write, (r, c) => this.update(r, c)],
      ['DELETE', new RegExp(`^/employeeExperience/communities/${id}$`), write, (r, c) => this.remove(c)],
      [
        'GET',
        new RegExp(`^/employeeExperience/engagementAsyncOperations/${id}$`),
        read,
        (r, o) => this.operation(o),
      ],
    ];
    return permitted(routes, this.tenant.granted);
  }

  private create(request: ParsedRequest): Reply {
    const body = request.body;
    const refused = refusal(body, true);
    if (refused) return refused;
    const binds = body['owners@odata.bind'];
    if (!Array.isArray(binds) || binds.length === 0)
      return fail(
        400,
        'BadRequest',
        'Owners are required when creating a community with an application token.',
      );
    if (binds.length > 100) return fail(400, 'BadRequest', 'A community has at most 100 owners.');
    const ownerIds = [...new Set(binds.map((bind) => this.tenant.userFromBind(String(bind))))];
    const operation: EngagementOperation = {
      id: encodedId({ _type: 'LongRunningOperation', id: randomUUID(), operation: 'CreateCommunity' }),
      createdDateTime: new Date().toISOString(),
      readyAt: Date.now() + this.tenant.latencyMs(),
      status: 'notStarted',
      fields: {
        displayName: String(body.displayName),
        description: typeof body.description === 'string' ? body.description : null,
        privacy: body.privacy as 'public' | 'private',
      },
      ownerIds,
    };
    this.operations.set(operation.id, operation);
    return {
      status: 202,
      headers: {
        'operation-location': `${this.tenant.origin()}/v1.0/employeeExperience/engagementAsyncOperations('${operation.id}')`,
      },
    };
  }

  private operation(operationId: string): Reply {
    const operation = this.operations.get(operationId);
    if (!operation) return fail(404, 'NotFound', 'The operation does not exist.');
    const now = Date.now();
    if (
      operation.lastPollAt !== undefined &&
      now - operation.lastPollAt < CommunitiesFake.POLL_INTERVAL_MS * this.tenant.scale
    )
      this.pollsTooSoon++;
    operation.lastPollAt = now;
    if (operation.status !== 'succeeded') {
      operation.status = now >= operation.readyAt ? 'succeeded' : 'running';
      if (operation.status === 'succeeded') operation.communityId = this.make(operation).id;
    }
    const done = operation.communityId;
    return {
      status: 200,
      body: {
        id: operation.id,
        createdDateTime: operation.createdDateTime,
        lastActionDateTime: new Date(now).toISOString(),
        status: operation.status,
        statusDetail: null,
        operationType: 'createCommunity',
        resourceId: done ?? null,
        resourceLocation:
          done === undefined
            ? null
            : `${this.tenant.origin()}/v1.0/employeeExperience/communities('${done}')`,
      },
    };
  }

  /** The community and its group, as the operation ends. */
  private make(operation: EngagementOperation): CommunityRecord {
    const { displayName, description, privacy } = operation.fields;
    const group = this.tenant.newGroup({
      displayName,
      description,
      mailNickname: displayName.replace(/[^A-Za-z0-9]/g, '').slice(0, 56) || 'community',
      visibility: privacy === 'private' ? 'Private' : 'Public',
    });
    for (const owner of operation.ownerIds) {
      group.ownerIds.add(owner);
      group.memberIds.add(owner);
    }
    const community: CommunityRecord = {
      id: encodedId({ _type: 'Group', id: String(1_000_000 + this.communities.size) }),
      groupId: group.id,
      ...operation.fields,
    };
    this.communities.set(community.id, community);
    return community;
  }

  private list(request: ParsedRequest): Reply {
    return this.tenant.collection(
      request,
      [...this.communities.values()].map((c) => communityJson(c)),
    );
  }

  private get(communityId: string): Reply {
    const community = this.communities.get(communityId);
    return community ? { status: 200, body: communityJson(community) } : notFound(communityId);
  }

  private update(request: ParsedRequest, communityId: string): Reply {
    const community = this.communities.get(communityId);
    if (!community) return notFound(communityId);
    const refused = refusal(request.body, false);
    if (refused) return refused;
    const { displayName, description, privacy } = request.body;
    if (typeof displayName === 'string') community.displayName = displayName;
    if (typeof description === 'string') community.description = description;
    if (privacy === 'public' || privacy === 'private') community.privacy = privacy;
    return { status: 204 };
  }

  private remove(communityId: string): Reply {
    const community = this.communities.get(communityId);
    if (!community) return notFound(communityId);
    this.communities.delete(communityId);
    this.tenant.deleteGroup(community.groupId);
    return { status: 204 };
  }
}

export interface CommunityRecord {
  id: string;
  groupId: string;
  displayName: string;
  description: string | null;
  privacy: 'public' | 'private';
}

interface EngagementOperation {
  id: string;
  createdDateTime: string;
  readyAt: number;
  status: 'notStarted' | 'running' | 'succeeded';
  fields: Omit<CommunityRecord, 'id' | 'groupId'>;
  ownerIds: string[];
  lastPollAt?: number;
  communityId?: string;
}

/** Graph's 400 for a body `resources/community.md` does not allow; null when it is fine. */
function refusal(body: Json, creating: boolean): Reply | null {
  const { displayName, description, privacy } = body;
  if (
    creating
      ? typeof displayName !== 'string' || displayName.trim() === ''
      : displayName !== undefined && typeof displayName !== 'string'
  )
    return fail(400, 'BadRequest', "The property 'displayName' is required.");
  if (typeof displayName === 'string' && Array.from(displayName).length > 255)
    return fail(400, 'BadRequest', "The property 'displayName' exceeds the maximum length of 255.");
  if (description !== undefined && description !== null && typeof description !== 'string')
    return fail(400, 'BadRequest', "The property 'description' must be a string.");
  if (typeof description === 'string' && Array.from(description).length > 1024)
    return fail(400, 'BadRequest', "The property 'description' exceeds the maximum length of 1024.");
  if ((creating || privacy !== undefined) && privacy !== 'public' && privacy !== 'private')
    return fail(400, 'BadRequest', "The property 'privacy' must be 'public' or 'private'.");
  return null;
}

function communityJson(community: CommunityRecord): Json {
  return {
    id: community.id,
    displayName: community.displayName,
    description: community.description,
    privacy: community.privacy,
    groupId: community.groupId,
  };
}

function notFound(communityId: string): Reply {
  return fail(404, 'NotFound', `The community '${communityId}' does not exist.`);
}

/** Viva Engage's ids, as its pages show them: a JSON object in base64url. */
function encodedId(value: Json): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
