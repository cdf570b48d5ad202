import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { FAKE_GRAPH_CERT, KEY } from './certificate';
import { type GraphLimits, Throttle } from './limits';
import {
  fail,
  HttpError,
  type Json,
  normalise,
  oauthError,
  parseFilter,
  parseJsonBody,
  type Reply,
  settingsIn,
  unquote,
} from './protocol';

/**
 * A Microsoft Graph simulator (and Entra ID token endpoint, and Bot Connector) on a loopback port,
 * built from Microsoft's documentation (microsoftgraph/microsoft-graph-docs-contrib, paths below
 * under api-reference/v1.0/ unless said otherwise):
 *
 * - Entra ID: OpenID metadata and the client-credentials grant, for Graph's scope and, for the
 *   bot's own registration, the Bot Connector's (`https://api.botframework.com/.default`).
 * - Teams operations (`api/team-post.md`, `api/team-clone.md`, `api/team-archive.md`): 202 with
 *   `Location` and `Content-Location`; the teamsAsyncOperation (`resources/teamsasyncoperation.md`)
 *   stays notStarted/inProgress for `operationPolls` looks and at least a latency drawn from
 *   `latency` (uniform between its bounds); the clone ignores `mailNickname` ("currently ignored").
 * - Replication (`api/team-post.md`: "it's possible for the Create team call to fail with a 404 …
 *   due to replication delays"): a new team answers 404 for `replicationMs` after it is made.
 * - Throttling (`includes/throttling-teams.md`, `concepts/throttling.md`): see `limits.ts`.
 * - Refusals: channel messages posted with an app-only token (`api/channel-post-messages.md`:
 *   application permissions are for migration only) answer 401; paths that exist only in beta
 *   (`/security/informationProtection/…`) answer 400 on v1.0 as unknown segments; a group request
 *   with more than 20 owners and members (`api/group-post-groups.md`) answers 400; members/add with
 *   more than 200 members (`api/conversationmembers-add.md`) answers 400.
 * - Members in bulk (`api/conversationmembers-add.md`), app installation in a team
 *   (`api/team-post-installedapps.md`), and the Bot Connector's "create conversation" in a channel
 *   (msteams-docs "Send proactive messages": the app must be installed in the team first, else 403).
 * - OData collections with `@odata.nextLink`, Graph error bodies, bearer tokens it issued itself,
 *   and fault injection (429/503 with Retry-After).
 *
 * `scale` multiplies every limit and latency (0.2: a fifth of each), so a benchmark reaches Graph's
 * ceiling in minutes. `main.ts` runs it as its own process.
 *
 * Responses never chain `res.writeHead(...).end(...)`: restify, loaded by other suites in the same
 * Jest process, patches ServerResponse so that writeHead no longer returns the response.
 */

/** One request as the fake received it. */
export interface LoggedRequest {
  method: string;
  /** Path and query as sent (still percent-encoded). */
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface FakeUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
  givenName?: string | null;
  surname?: string | null;
  mail?: string | null;
  jobTitle?: string | null;
  department?: string | null;
  companyName?: string | null;
  country?: string | null;
  city?: string | null;
  usageLocation?: string | null;
  preferredLanguage?: string | null;
}

interface GroupRecord {
  id: string;
  displayName: string;
  description: string | null;
  mailNickname: string;
  visibility: 'Public' | 'Private';
  classification: string | null;
  uniqueName: string | null;
  ownerIds: Set<string>;
  memberIds: Set<string>;
  assignedLabels: Array<{ labelId: string }>;
  extensions: Map<string, Json>;
}

interface TeamRecord {
  id: string;
  internalId: string;
  createdDateTime: string;
  isArchived: boolean;
  siteReadOnlyForMembers: boolean;
  settings: Record<string, Json>;
  members: Array<{ id: string; userId: string; roles: string[] }>;
  channels: ChannelRecord[];
  /** Catalog ids of the apps installed in the team. */
  installedApps: Set<string>;
  /** Until then (ms since the epoch) the team answers 404: Graph has not replicated it yet. */
  visibleAt: number;
}

interface ChannelRecord {
  id: string;
  displayName: string;
  description: string | null;
  membershipType: string;
  createdDateTime: string;
  tabs: Array<{ id: string; displayName: string; teamsAppId: string; configuration: Json }>;
  messages: Array<{ id: string; contentType: string; content: string; from?: string }>;
}

interface OperationRecord {
  id: string;
  teamId: string;
  operationType: MSGraph.TeamsAsyncOperationType;
  createdDateTime: string;
  pendingPolls: number;
  /** Not finished before then (ms since the epoch). */
  readyAt: number;
  polls: number;
  failure: string | undefined;
  targetResourceId: string;
  finish: () => void;
  status: 'notStarted' | 'inProgress' | 'succeeded' | 'failed';
}

interface Fault {
  method: string | undefined;
  path: RegExp;
  remaining: number;
  status: number;
  retryAfter: string | undefined;
}

export interface FakeGraphOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Polls an operation answers notStarted / inProgress before it ends (default 1). */
  operationPolls?: number;
  /** Items per collection page at most (default 100). */
  pageSize?: number;
  /** How long operations take at least, drawn uniformly between the bounds (default 0). */
  latency?: { minMs: number; maxMs: number };
  /** A new team answers 404 this long after it is made (default 0). */
  replicationMs?: number;
  /** The throttling limits (default: none enforced); `PUBLISHED_LIMITS` are Microsoft's. */
  limits?: GraphLimits;
  /** Multiplies every limit and latency (default 1). */
  scale?: number;
  /** `Retry-After` (seconds) on unfinished operations, as Graph may send (default none). */
  operationRetryAfter?: number;
  /** Steward's bot: its app registration and its app in the catalog (for the welcome message). */
  bot?: { appId: string; secret: string; teamsAppId: string };
  /** Port to listen on (default: any free one). */
  port?: number;
}

type Handler = (request: ParsedRequest, ...params: string[]) => Reply;

interface ParsedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Json;
}

const MEMBER_TYPE = '#microsoft.graph.aadUserConversationMember';
/** Owners and members one group request takes (`api/group-post-groups.md`). */
const GROUP_REQUEST_PEOPLE = 20;
/** Members one `conversationMember: add` takes (`api/conversationmembers-add.md`). */
const BULK_ADD_LIMIT = 200;
const PARTS = ['apps', 'tabs', 'settings', 'channels', 'members'];

/** A running fake Graph. */
export class FakeGraph {
  readonly tenantId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every request, Entra ID's included, in arrival order. */
  readonly requests: LoggedRequest[] = [];
  readonly users = new Map<string, FakeUser>();
  readonly groups = new Map<string, GroupRecord>();
  readonly teams = new Map<string, TeamRecord>();
  readonly operations = new Map<string, OperationRecord>();
  /** Directory objects per user id, as `/users/{id}/memberOf` lists them. */
  readonly memberOf = new Map<string, Json[]>();
  readonly labels: Json[] = [];
  readonly apps = new Map<string, Json>();
  operationPolls: number;
  pageSize: number;
  readonly options: FakeGraphOptions;
  /** The token buckets, when limits are enforced. */
  readonly throttle: Throttle | undefined;
  /** POST /teams from a group answers 404 this many times first (Graph's replication delay). */
  replicationDelays = 0;
  tokensIssued = 0;
  private readonly tokens = new Set<string>();
  private readonly botTokens = new Set<string>();
  private faults: Fault[] = [];
  private nextOperationFailure: string | undefined;
  private server!: Server;
  private readonly routes: Array<[string, RegExp, Handler]>;

  private constructor(options: FakeGraphOptions) {
    this.tenantId = options.tenantId ?? '11111111-2222-3333-4444-555555555555';
    this.clientId = options.clientId ?? 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
    this.clientSecret = options.clientSecret ?? 'fake-client-secret-value';
    this.operationPolls = options.operationPolls ?? 1;
    this.pageSize = options.pageSize ?? 100;
    this.options = options;
    this.throttle = options.limits ? new Throttle(options.limits, options.scale ?? 1) : undefined;
    const id = '([^/]+)';
    this.routes = [
      ['PATCH', /^\/groups\(uniqueName=(.+)\)$/, (r, key) => this.upsertGroup(r, key)],
      ['GET', /^\/groups\(uniqueName=(.+)\)$/, (r, key) => this.groupByUniqueName(r, key)],
      ['GET', /^\/groups$/, (r) => this.listGroups(r)],
      [
        'GET',
        new RegExp(`^/groups/${id}$`),
        (r, g) => ({ status: 200, body: this.groupJson(this.group(g)) }),
      ],
      ['PATCH', new RegExp(`^/groups/${id}$`), (r, g) => this.patchGroup(r, g)],
      ['DELETE', new RegExp(`^/groups/${id}$`), (r, g) => this.deleteGroup(g)],
      ['POST', new RegExp(`^/groups/${id}/extensions$`), (r, g) => this.addExtension(r, g)],
      ['GET', new RegExp(`^/groups/${id}/extensions/${id}$`), (r, g, e) => this.getExtension(g, e)],
      ['POST', /^\/teams$/, (r) => this.createTeam(r)],
      ['GET', /^\/teams$/, (r) => this.listTeams(r)],
      ['GET', new RegExp(`^/teams/${id}$`), (r, t) => ({ status: 200, body: this.teamJson(this.team(t)) })],
      ['PATCH', new RegExp(`^/teams/${id}$`), (r, t) => this.patchTeam(r, t)],
      ['POST', new RegExp(`^/teams/${id}/clone$`), (r, t) => this.cloneTeam(r, t)],
      ['POST', new RegExp(`^/teams/${id}/(archive|unarchive)$`), (r, t, verb) => this.archive(r, t, verb)],
      ['GET', new RegExp(`^/teams/${id}/operations/${id}$`), (r, t, o) => this.operation(t, o)],
      ['GET', new RegExp(`^/teams/${id}/members$`), (r, t) => this.collection(r, this.membersJson(t))],
      ['POST', new RegExp(`^/teams/${id}/members$`), (r, t) => this.addMember(r, t)],
      ['POST', new RegExp(`^/teams/${id}/members/add$`), (r, t) => this.addMembers(r, t)],
      ['POST', new RegExp(`^/teams/${id}/installedApps$`), (r, t) => this.installApp(r, t)],
      ['PATCH', new RegExp(`^/teams/${id}/members/${id}$`), (r, t, m) => this.patchMember(r, t, m)],
      ['GET', new RegExp(`^/teams/${id}/channels$`), (r, t) => this.listChannels(r, t)],
      ['POST', new RegExp(`^/teams/${id}/channels$`), (r, t) => this.createChannel(r, t)],
      ['GET', new RegExp(`^/teams/${id}/primaryChannel$`), (r, t) => this.primaryChannel(t)],
      ['GET', new RegExp(`^/teams/${id}/channels/${id}/tabs$`), (r, t, c) => this.listTabs(r, t, c)],
      ['POST', new RegExp(`^/teams/${id}/channels/${id}/tabs$`), (r, t, c) => this.createTab(r, t, c)],
      [
        'GET',
        new RegExp(`^/teams/${id}/channels/${id}/tabs/${id}$`),
        (r, t, c, b) => this.getTab(r, t, c, b),
      ],
      ['POST', new RegExp(`^/teams/${id}/channels/${id}/messages$`), (r, t, c) => this.postMessage(r, t, c)],
      ['GET', /^\/users$/, (r) => this.listUsers(r)],
      [
        'GET',
        new RegExp(`^/users/${id}$`),
        (r, u) => ({ status: 200, body: this.userJson(r, this.user(u)) }),
      ],
      ['GET', new RegExp(`^/users/${id}/memberOf$`), (r, u) => this.listMemberOf(r, u)],
      [
        'GET',
        /^\/security\/dataSecurityAndGovernance\/sensitivityLabels$/,
        (r) => this.collection(r, this.labels),
      ],
    ];
  }

  /** Starts a fake on 127.0.0.1 with a random port. */
  static async start(options: FakeGraphOptions = {}): Promise<FakeGraph> {
    const fake = new FakeGraph(options);
    fake.server = createServer({ key: KEY, cert: FAKE_GRAPH_CERT }, (req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server.listen(options.port ?? 0, '127.0.0.1', resolve));
    return fake;
  }

  /** `https://127.0.0.1:<port>`: the authority host. */
  get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Graph's base URL on the fake. */
  get baseUrl(): string {
    return `${this.origin}/v1.0`;
  }

  /** The `config.platform` of a Steward pointed at this fake. */
  config() {
    return {
      kind: 'graph' as const,
      tenantId: this.tenantId,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      baseUrl: this.baseUrl,
      authorityHost: this.origin,
      teamsAppId: this.options.bot?.teamsAppId,
      botServiceUrl: `${this.origin}/botframework/`,
    };
  }

  /** An undici dispatcher that trusts the fake's certificate. */
  dispatcher(): Agent {
    return new Agent({ connect: { ca: FAKE_GRAPH_CERT } });
  }

  /** The next `times` requests matching `method` and `path` answer `status` (with Retry-After when given). */
  fail(fault: { method?: string; path: RegExp; times: number; status: number; retryAfter?: string }): void {
    this.faults.push({
      method: fault.method,
      path: fault.path,
      remaining: fault.times,
      status: fault.status,
      retryAfter: fault.retryAfter,
    });
  }

  /** Drops the faults not yet used up. */
  clearFaults(): void {
    this.faults = [];
  }

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

  /** Forgets every token issued so far (as a rotated secret or revoked consent would). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** The Graph requests (not Entra ID's). */
  graphRequests(): LoggedRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/v1.0/'));
  }

  /** Adds a person. */
  addUser(user: FakeUser): FakeUser {
    this.users.set(user.id, user);
    return user;
  }

  /**
   * Adds a Microsoft 365 group without a team, and lists it in `/users/{id}/memberOf` of its
   * members (as a directory group that audience rules read).
   */
  addGroup(group: {
    id?: string;
    displayName: string;
    description?: string;
    mailNickname: string;
    memberIds?: string[];
  }): string {
    const record = this.newGroup(
      {
        displayName: group.displayName,
        description: group.description ?? null,
        mailNickname: group.mailNickname,
        visibility: 'Private',
      },
      group.id,
    );
    for (const userId of group.memberIds ?? []) {
      record.memberIds.add(userId);
      const entries = this.memberOf.get(userId) ?? [];
      entries.push({
        '@odata.type': '#microsoft.graph.group',
        id: record.id,
        displayName: record.displayName,
        description: record.description,
        mailNickname: record.mailNickname,
        groupTypes: ['Unified'],
      });
      this.memberOf.set(userId, entries);
    }
    return record.id;
  }

  /**
   * Adds an existing team (and its group) with a General channel, and the other channels given
   * with their tabs (their apps must be in `apps` for the tabs to be readable with the app).
   */
  addTeam(team: {
    /** The team's (and group's) id; a new GUID by default. */
    id?: string;
    displayName: string;
    description?: string;
    visibility?: 'Public' | 'Private';
    ownerIds?: string[];
    memberIds?: string[];
    settings?: Record<string, Json>;
    channels?: Array<{
      displayName: string;
      description?: string;
      tabs?: Array<{ displayName: string; teamsAppId: string; configuration?: Json }>;
    }>;
  }): string {
    const group = this.newGroup(
      {
        displayName: team.displayName,
        description: team.description ?? null,
        mailNickname: team.displayName.replace(/[^A-Za-z0-9]/g, '') + randomBytes(2).toString('hex'),
        visibility: team.visibility ?? 'Private',
      },
      team.id,
    );
    for (const id of team.ownerIds ?? []) {
      group.ownerIds.add(id);
      group.memberIds.add(id);
    }
    for (const id of team.memberIds ?? []) group.memberIds.add(id);
    const record = this.newTeam(group, team.settings ?? {});
    for (const spec of team.channels ?? []) {
      const channel = this.newChannel(spec.displayName, spec.description ?? null, 'standard');
      channel.tabs = (spec.tabs ?? []).map((tab) => ({
        id: randomUUID(),
        displayName: tab.displayName,
        teamsAppId: tab.teamsAppId,
        configuration: tab.configuration ?? {},
      }));
      record.channels.push(channel);
    }
    return group.id;
  }

  /** Stops the server and drops its connections. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- transport ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const url = new URL(req.url ?? '/', this.origin);
    const method = req.method ?? 'GET';
    const type = headers['content-type'] ?? '';
    let reply: Reply;
    try {
      let body: unknown = text;
      if (type.includes('json') && text) body = parseJsonBody(text);
      if (type.includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(text));
      this.requests.push({ method, path: `${url.pathname}${url.search}`, headers, body, at: Date.now() });
      const json = (body && typeof body === 'object' ? body : {}) as Json;
      reply = url.pathname.startsWith('/v1.0/')
        ? this.graph({ method, url, headers, body: json })
        : url.pathname.startsWith('/botframework/')
          ? this.connector({ method, url, headers, body: json })
          : this.entra(method, url, body as Record<string, string>);
    } catch (error) {
      reply = error instanceof HttpError ? error.reply : fail(500, 'InternalServerError', String(error));
    }
    const out: Record<string, string> = { 'request-id': randomUUID(), ...reply.headers };
    if (headers['client-request-id']) out['client-request-id'] = headers['client-request-id'];
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    if (payload) out['content-type'] = 'application/json';
    res.writeHead(reply.status, out);
    res.end(payload);
  }

  private entra(method: string, url: URL, form: Record<string, string>): Reply {
    const match = /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token)$/.exec(
      url.pathname,
    );
    if (!match || match[1] !== this.tenantId)
      return { status: 400, body: oauthError('invalid_tenant', 'AADSTS90002') };
    const base = `${this.origin}/${this.tenantId}`;
    if (method === 'GET' && match[2]?.startsWith('v2.0')) {
      return {
        status: 200,
        body: {
          token_endpoint: `${base}/oauth2/v2.0/token`,
          authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
          end_session_endpoint: `${base}/oauth2/v2.0/logout`,
          jwks_uri: `${base}/discovery/v2.0/keys`,
          issuer: `${base}/v2.0`,
          token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
        },
      };
    }
    if (method !== 'POST') return { status: 405, body: oauthError('invalid_request', 'method') };
    if (form.grant_type !== 'client_credentials')
      return { status: 400, body: oauthError('unsupported_grant_type', '') };
    const bot = this.options.bot;
    if (bot && form.client_id === bot.appId) return this.botToken(form, bot.secret);
    if (form.client_id !== this.clientId)
      return { status: 400, body: oauthError('unauthorized_client', 'AADSTS700016') };
    if (form.client_secret !== this.clientSecret) {
      return {
        status: 401,
        body: oauthError('invalid_client', 'AADSTS7000215: Invalid client secret provided.'),
      };
    }
    if (!(form.scope ?? '').split(' ').includes('https://graph.microsoft.com/.default')) {
      return { status: 400, body: oauthError('invalid_scope', 'AADSTS1002012') };
    }
    const token = `fake-graph-token-${randomBytes(24).toString('hex')}`;
    this.tokens.add(token);
    this.tokensIssued++;
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token },
    };
  }

  private graph(request: ParsedRequest): Reply {
    const auth = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!auth || !this.tokens.has(auth[1] ?? '')) {
      return fail(
        401,
        'InvalidAuthenticationToken',
        auth ? 'Access token validation failure.' : 'Access token is empty.',
      );
    }
    const path = normalise(request.url.pathname.slice('/v1.0'.length));
    const fault = this.faults.find(
      (f) => f.remaining > 0 && (!f.method || f.method === request.method) && f.path.test(path),
    );
    if (fault) {
      fault.remaining--;
      const code =
        fault.status === 429
          ? 'TooManyRequests'
          : fault.status === 503
            ? 'serviceNotAvailable'
            : 'UnknownError';
      const reply = fail(fault.status, code, 'Injected by the fake.');
      return fault.retryAfter === undefined
        ? reply
        : { ...reply, headers: { 'retry-after': fault.retryAfter } };
    }
    const throttled = this.throttle?.admit(request.method, path);
    if (throttled) return throttled;
    const teamId = /^\/teams\/([^/]+)/.exec(path)?.[1];
    const team = teamId === undefined ? undefined : this.teams.get(teamId);
    if (team && Date.now() < team.visibleAt) {
      return fail(404, 'NotFound', `No team found with Group Id ${team.id}`);
    }
    for (const [method, pattern, handler] of this.routes) {
      const match = method === request.method ? pattern.exec(path) : null;
      if (match) return handler(request, ...match.slice(1).map((p) => p ?? ''));
    }
    return fail(400, 'BadRequest', `Resource not found for the segment '${path}'.`);
  }

  // ---- collections ----

  private collection(request: ParsedRequest, items: Json[]): Reply {
    const query = request.url.searchParams;
    const size = Math.min(Number(query.get('$top')) || Infinity, this.pageSize);
    const skip = Number(query.get('$skiptoken')) || 0;
    const body: Json = {
      '@odata.context': `${this.baseUrl}/$metadata#collection`,
      value: items.slice(skip, skip + size),
    };
    if (query.get('$count') === 'true') body['@odata.count'] = items.length;
    if (skip + size < items.length) {
      const next = new URL(request.url.href);
      next.searchParams.set('$skiptoken', String(skip + size));
      body['@odata.nextLink'] = next.href;
    }
    return { status: 200, body };
  }

  // ---- directory ----

  private user(key: string): FakeUser {
    const k = key.toLowerCase();
    const user =
      this.users.get(key) ?? [...this.users.values()].find((u) => u.userPrincipalName.toLowerCase() === k);
    if (user) return user;
    if (!key.includes('@') && !/^[0-9a-f-]+$/i.test(key))
      throw new HttpError(fail(400, 'Request_BadRequest', `Invalid object identifier '${key}'.`));
    throw new HttpError(fail(404, 'Request_ResourceNotFound', `Resource '${key}' does not exist.`));
  }

  private userJson(request: ParsedRequest, user: FakeUser): Json {
    const select = request.url.searchParams.get('$select');
    const full: Json = {
      givenName: null,
      surname: null,
      mail: null,
      jobTitle: null,
      department: null,
      companyName: null,
      country: null,
      city: null,
      usageLocation: null,
      preferredLanguage: null,
      businessPhones: [],
      ...user,
    };
    if (!select) return full;
    return Object.fromEntries(select.split(',').map((field) => [field, full[field] ?? null]));
  }

  private listUsers(request: ParsedRequest): Reply {
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

  private listMemberOf(request: ParsedRequest, userId: string): Reply {
    this.user(userId);
    return this.collection(request, this.memberOf.get(userId) ?? []);
  }

  // ---- groups ----

  private newGroup(
    fields: Pick<GroupRecord, 'displayName' | 'description' | 'mailNickname' | 'visibility'>,
    id: string = randomUUID(),
  ): GroupRecord {
    if (this.groups.has(id)) throw new Error(`The fake already has a group ${id}.`);
    const group: GroupRecord = {
      id,
      classification: null,
      uniqueName: null,
      ownerIds: new Set(),
      memberIds: new Set(),
      assignedLabels: [],
      extensions: new Map(),
      ...fields,
    };
    this.groups.set(group.id, group);
    return group;
  }

  private group(id: string): GroupRecord {
    const group = this.groups.get(id);
    if (!group)
      throw new HttpError(fail(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`));
    return group;
  }

  private groupJson(group: GroupRecord): Json {
    return {
      id: group.id,
      displayName: group.displayName,
      description: group.description,
      mailNickname: group.mailNickname,
      mail: `${group.mailNickname}@contoso.example`,
      visibility: group.visibility,
      classification: group.classification,
      groupTypes: ['Unified'],
      uniqueName: group.uniqueName,
      resourceProvisioningOptions: this.teams.has(group.id) ? ['Team'] : [],
    };
  }

  private upsertGroup(request: ParsedRequest, literal: string): Reply {
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
    for (const bind of (body['owners@odata.bind'] as string[] | undefined) ?? [])
      group.ownerIds.add(this.userFromBind(bind));
    for (const bind of (body['members@odata.bind'] as string[] | undefined) ?? [])
      group.memberIds.add(this.userFromBind(bind));
    return { status: 201, body: this.groupJson(group) };
  }

  private groupByUniqueName(request: ParsedRequest, literal: string): Reply {
    const group = [...this.groups.values()].find((g) => g.uniqueName === unquote(literal));
    return group
      ? { status: 200, body: this.groupJson(group) }
      : fail(404, 'Request_ResourceNotFound', 'No such group.');
  }

  private listGroups(request: ParsedRequest): Reply {
    const filter = request.url.searchParams.get('$filter');
    const test = filter ? parseFilter(filter) : () => true;
    return this.collection(request, [...this.groups.values()].map((g) => this.groupJson(g)).filter(test));
  }

  private patchGroup(request: ParsedRequest, id: string): Reply {
    const group = this.group(id);
    const body = request.body;
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

  private deleteGroup(id: string): Reply {
    this.group(id);
    this.groups.delete(id);
    this.teams.delete(id);
    return { status: 204 };
  }

  private addExtension(request: ParsedRequest, groupId: string): Reply {
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

  private getExtension(groupId: string, name: string): Reply {
    const extension = this.group(groupId).extensions.get(name);
    return extension
      ? { status: 200, body: extension }
      : fail(404, 'ResourceNotFound', 'Extension not found.');
  }

  private userFromBind(bind: string): string {
    const match = /\/users(?:\('([^']+)'\)|\/([^/]+))$/.exec(bind);
    const id = decodeURIComponent(match?.[1] ?? match?.[2] ?? '');
    if (!this.users.has(id))
      throw new HttpError(fail(400, 'Request_BadRequest', `Invalid object identifier '${id}'.`));
    return id;
  }

  // ---- teams ----

  private team(id: string): TeamRecord {
    const team = this.teams.get(id);
    if (!team) throw new HttpError(fail(404, 'NotFound', `No team found with Group Id ${id}`));
    return team;
  }

  private newTeam(group: GroupRecord, settings: Record<string, Json>): TeamRecord {
    const team: TeamRecord = {
      id: group.id,
      internalId: `19:${randomBytes(16).toString('hex')}@thread.tacv2`,
      createdDateTime: new Date().toISOString(),
      isArchived: false,
      siteReadOnlyForMembers: false,
      settings: {
        memberSettings: {
          allowCreateUpdateChannels: true,
          allowCreatePrivateChannels: true,
          allowDeleteChannels: true,
        },
        guestSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
        messagingSettings: { allowUserEditMessages: true, allowUserDeleteMessages: true },
        funSettings: { allowGiphy: true, giphyContentRating: 'moderate' },
        ...settings,
      },
      members: [...group.memberIds, ...group.ownerIds]
        .filter((id, i, all) => all.indexOf(id) === i)
        .map((userId) => ({ id: randomUUID(), userId, roles: group.ownerIds.has(userId) ? ['owner'] : [] })),
      channels: [],
      installedApps: new Set(),
      visibleAt: 0,
    };
    team.channels.push(this.newChannel('General', null, 'standard'));
    this.teams.set(team.id, team);
    return team;
  }

  private newChannel(displayName: string, description: string | null, membershipType: string): ChannelRecord {
    return {
      id: `19:${randomBytes(12).toString('hex')}@thread.tacv2`,
      displayName,
      description,
      membershipType,
      createdDateTime: new Date().toISOString(),
      tabs: [],
      messages: [],
    };
  }

  /** `GET /teams`: like Graph v1.0, only id, displayName and description are filled in; the rest is null. */
  private listTeams(request: ParsedRequest): Reply {
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

  private teamJson(team: TeamRecord): Json {
    const group = this.group(team.id);
    return {
      id: team.id,
      createdDateTime: team.createdDateTime,
      displayName: group.displayName,
      description: group.description,
      internalId: team.internalId,
      classification: group.classification,
      specialization: 'none',
      visibility: group.visibility.toLowerCase(),
      webUrl: `https://teams.microsoft.com/l/team/${encodeURIComponent(team.internalId)}/conversations?groupId=${team.id}&tenantId=${this.tenantId}`,
      isArchived: team.isArchived,
      tenantId: this.tenantId,
      summary: null,
      // Graph v1.0 does not return discoverySettings; the fields below are real v1.0 ones too.
      memberSettings: { allowCreateUpdateChannels: true, ...team.settings.memberSettings },
      guestSettings: { ...team.settings.guestSettings },
      messagingSettings: { ...team.settings.messagingSettings },
      funSettings: { ...team.settings.funSettings },
    };
  }

  private createTeam(request: ParsedRequest): Reply {
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

  private cloneTeam(request: ParsedRequest, sourceId: string): Reply {
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

  private archive(request: ParsedRequest, teamId: string, verb: string): Reply {
    const team = this.team(teamId);
    const readOnly = request.body.shouldSetSpoSiteReadOnlyForMembers === true;
    return this.accepted(teamId, verb === 'archive' ? 'archiveTeam' : 'unarchiveTeam', teamId, () => {
      team.isArchived = verb === 'archive';
      team.siteReadOnlyForMembers = verb === 'archive' && readOnly;
    });
  }

  private accepted(
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

  private operation(teamId: string, operationId: string): Reply {
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
        targetResourceLocation: `/teams('${operation.targetResourceId}')`,
        error: operation.status === 'failed' ? { code: 'BadRequest', message: operation.failure } : null,
      } satisfies MSGraph.TeamsAsyncOperation,
    };
  }

  /** Ends an operation; a team it made is not visible until Graph has replicated it. */
  private complete(operation: OperationRecord): void {
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
  private drawLatency(): number {
    const latency = this.options.latency;
    if (!latency) return 0;
    const drawn = latency.minMs + Math.random() * (latency.maxMs - latency.minMs);
    return drawn * (this.options.scale ?? 1);
  }

  private patchTeam(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    for (const [name, value] of Object.entries(settingsIn(request.body))) {
      team.settings[name] = { ...team.settings[name], ...value };
    }
    return { status: 204 };
  }

  private membersJson(teamId: string): Json[] {
    return this.team(teamId).members.map((m) => this.memberJson(m));
  }

  private memberJson(member: { id: string; userId: string; roles: string[] }): Json {
    const user = this.users.get(member.userId);
    return {
      '@odata.type': MEMBER_TYPE,
      id: member.id,
      roles: member.roles,
      displayName: user?.displayName ?? null,
      visibleHistoryStartDateTime: '0001-01-01T00:00:00Z',
      userId: member.userId,
      email: user?.mail ?? null,
      tenantId: this.tenantId,
    };
  }

  private addMember(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    if (request.body['@odata.type'] !== MEMBER_TYPE)
      return fail(400, 'BadRequest', 'Unsupported member type.');
    const userId = this.userFromBind(String(request.body['user@odata.bind'] ?? ''));
    if (team.members.some((m) => m.userId === userId))
      return fail(409, 'Conflict', 'User is already a member of the team.');
    const member = { id: randomUUID(), userId, roles: (request.body.roles as string[] | undefined) ?? [] };
    team.members.push(member);
    return { status: 201, body: this.memberJson(member) };
  }

  private patchMember(request: ParsedRequest, teamId: string, memberId: string): Reply {
    const member = this.team(teamId).members.find((m) => m.id === memberId);
    if (!member) return fail(404, 'NotFound', 'Member not found.');
    if (request.body['@odata.type'] !== MEMBER_TYPE)
      return fail(400, 'BadRequest', 'Unsupported member type.');
    member.roles = (request.body.roles as string[] | undefined) ?? [];
    return { status: 200, body: this.memberJson(member) };
  }

  private channelJson(team: TeamRecord, channel: ChannelRecord): Json {
    return {
      id: channel.id,
      createdDateTime: channel.createdDateTime,
      displayName: channel.displayName,
      description: channel.description,
      membershipType: channel.membershipType,
      isFavoriteByDefault: null,
      email: '',
      webUrl: `https://teams.microsoft.com/l/channel/${encodeURIComponent(channel.id)}?groupId=${team.id}`,
    };
  }

  private channel(teamId: string, channelId: string): { team: TeamRecord; channel: ChannelRecord } {
    const team = this.team(teamId);
    const channel = team.channels.find((c) => c.id === channelId);
    if (!channel) throw new HttpError(fail(404, 'NotFound', `Channel ${channelId} not found.`));
    return { team, channel };
  }

  private listChannels(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    return this.collection(
      request,
      team.channels.map((c) => this.channelJson(team, c)),
    );
  }

  private primaryChannel(teamId: string): Reply {
    const team = this.team(teamId);
    return { status: 200, body: this.channelJson(team, team.channels[0] as ChannelRecord) };
  }

  private createChannel(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const body = request.body;
    const type = typeof body.membershipType === 'string' ? body.membershipType : 'standard';
    if (typeof body.displayName !== 'string') return fail(400, 'BadRequest', 'displayName is required.');
    if (team.channels.some((c) => c.displayName.toLowerCase() === String(body.displayName).toLowerCase())) {
      return fail(409, 'NameAlreadyExists', 'Channel name already existed, please use other name.');
    }
    if (type !== 'standard') {
      const members = (body.members as Json[] | undefined) ?? [];
      const owner = members.find((m) => (m.roles as string[] | undefined)?.includes('owner'));
      if (!owner)
        return fail(
          400,
          'BadRequest',
          'An owner is required to create a private channel with application permissions.',
        );
      this.userFromBind(String(owner['user@odata.bind'] ?? ''));
    }
    const description = typeof body.description === 'string' ? body.description : null;
    const channel = this.newChannel(body.displayName, description, type);
    team.channels.push(channel);
    return { status: 201, body: this.channelJson(team, channel) };
  }

  private tabJson(channel: ChannelRecord, tab: ChannelRecord['tabs'][number], expand: boolean): Json {
    const json: Json = {
      id: tab.id,
      displayName: tab.displayName,
      webUrl: `https://teams.microsoft.com/l/entity/${tab.teamsAppId}/${tab.id}?label=${encodeURIComponent(tab.displayName)}`,
      configuration: {
        entityId: null,
        contentUrl: null,
        websiteUrl: null,
        removeUrl: null,
        ...tab.configuration,
      },
    };
    if (expand)
      json.teamsApp = this.apps.get(tab.teamsAppId) ?? {
        id: tab.teamsAppId,
        externalId: null,
        displayName: '',
        distributionMethod: 'store',
      };
    return json;
  }

  private listTabs(request: ParsedRequest, teamId: string, channelId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const expand = request.url.searchParams.get('$expand') === 'teamsApp';
    return this.collection(
      request,
      channel.tabs.map((t) => this.tabJson(channel, t, expand)),
    );
  }

  private createTab(request: ParsedRequest, teamId: string, channelId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const bind = /\/appCatalogs\/teamsApps\/([^/]+)$/.exec(String(request.body['teamsApp@odata.bind'] ?? ''));
    const appId = decodeURIComponent(bind?.[1] ?? '');
    if (!this.apps.has(appId)) return fail(404, 'NotFound', `App ${appId} is not in the catalog.`);
    const tab = {
      id: randomUUID(),
      displayName: String(request.body.displayName ?? ''),
      teamsAppId: appId,
      configuration: (request.body.configuration as Json | undefined) ?? {},
    };
    channel.tabs.push(tab);
    return { status: 201, body: this.tabJson(channel, tab, false) };
  }

  private getTab(request: ParsedRequest, teamId: string, channelId: string, tabId: string): Reply {
    const { channel } = this.channel(teamId, channelId);
    const tab = channel.tabs.find((t) => t.id === tabId);
    if (!tab) return fail(404, 'NotFound', 'Tab not found.');
    return {
      status: 200,
      body: this.tabJson(channel, tab, request.url.searchParams.get('$expand') === 'teamsApp'),
    };
  }

  /**
   * A channel message with the app's own token: Graph allows application permissions here only to
   * import messages into a team in migration mode (`api/channel-post-messages.md`), which this
   * simulator does not model, so the answer is Graph's 401.
   */
  private postMessage(_request: ParsedRequest, teamId: string, channelId: string): Reply {
    this.channel(teamId, channelId);
    return fail(
      401,
      'Unauthorized',
      'Message POST is allowed in application-only context only for import purposes.',
    );
  }

  /** `conversationMember: add`: one result per member, errors per member rather than for the call. */
  private addMembers(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const values = request.body.values;
    if (!Array.isArray(values) || values.length === 0) return fail(400, 'BadRequest', 'values is required.');
    if (values.length > BULK_ADD_LIMIT) {
      return fail(400, 'BadRequest', `At most ${BULK_ADD_LIMIT} members can be added in one request.`);
    }
    const results: MSGraph.AadUserConversationMemberResult[] = [];
    for (const value of values as Json[]) {
      const bind = String(value['user@odata.bind'] ?? '');
      const match = /\/users(?:\('([^']+)'\)|\/([^/]+))$/.exec(bind);
      const userId = decodeURIComponent(match?.[1] ?? match?.[2] ?? '');
      const error = (code: string, message: string) => ({ code, message });
      if (value['@odata.type'] !== MEMBER_TYPE) {
        results.push({ userId, error: error('BadRequest', 'Unsupported member type.') });
      } else if (!this.users.has(userId)) {
        results.push({ userId, error: error('NotFound', `User ${userId} was not found.`) });
      } else {
        if (!team.members.some((m) => m.userId === userId)) {
          team.members.push({ id: randomUUID(), userId, roles: (value.roles as string[] | undefined) ?? [] });
        }
        results.push({ userId, error: null });
      }
    }
    return {
      status: 200,
      body: {
        value: results.map((r) => ({
          '@odata.type': '#microsoft.graph.aadUserConversationMemberResult',
          ...r,
        })),
      },
    };
  }

  /** `POST /teams/{id}/installedApps`: the app must be in the catalog; installing it twice is a 409. */
  private installApp(request: ParsedRequest, teamId: string): Reply {
    const team = this.team(teamId);
    const bind = /\/appCatalogs\/teamsApps(?:\('([^']+)'\)|\/([^/]+))$/.exec(
      String(request.body['teamsApp@odata.bind'] ?? ''),
    );
    const appId = decodeURIComponent(bind?.[1] ?? bind?.[2] ?? '');
    if (!this.apps.has(appId) && appId !== this.options.bot?.teamsAppId) {
      return fail(404, 'NotFound', `App ${appId} is not in the catalog.`);
    }
    if (team.installedApps.has(appId)) return fail(409, 'Conflict', 'The app is already installed.');
    team.installedApps.add(appId);
    return { status: 201 };
  }

  private botToken(form: Record<string, string>, secret: string): Reply {
    if (form.client_secret !== secret) {
      return {
        status: 401,
        body: oauthError('invalid_client', 'AADSTS7000215: Invalid client secret provided.'),
      };
    }
    if (form.scope !== 'https://api.botframework.com/.default') {
      return { status: 400, body: oauthError('invalid_scope', 'AADSTS1002012') };
    }
    const token = `fake-bot-token-${randomBytes(24).toString('hex')}`;
    this.botTokens.add(token);
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token },
    };
  }

  /**
   * The Bot Connector's "create conversation" in a channel (`POST /v3/conversations` with
   * `channelData.channel.id`): only with a token of the bot's own registration, and only in a team
   * where the bot's app is installed.
   */
  private connector(request: ParsedRequest): Reply {
    const bot = this.options.bot;
    const auth = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!bot || !auth || !this.botTokens.has(auth[1] ?? '')) {
      return { status: 401, body: { message: 'Authorization has been denied for this request.' } };
    }
    if (request.method !== 'POST' || request.url.pathname !== '/botframework/v3/conversations') {
      return { status: 404, body: { error: { code: 'NotFound', message: request.url.pathname } } };
    }
    const body = request.body as {
      channelData?: { channel?: { id?: string } };
      activity?: { type?: string; text?: string };
      bot?: { id?: string };
    };
    const channelId = body.channelData?.channel?.id ?? '';
    const team = [...this.teams.values()].find((t) => t.channels.some((c) => c.id === channelId));
    if (!team || !team.installedApps.has(bot.teamsAppId)) {
      return {
        status: 403,
        body: {
          error: {
            code: 'BotNotInConversationRoster',
            message: 'The bot is not part of the conversation roster.',
          },
        },
      };
    }
    if (body.bot?.id !== `28:${bot.appId}` || body.activity?.type !== 'message' || !body.activity.text) {
      return {
        status: 400,
        body: { error: { code: 'BadArgument', message: 'A message activity from the bot is required.' } },
      };
    }
    const channel = team.channels.find((c) => c.id === channelId)!;
    const id = String(Date.now());
    channel.messages.push({ id, contentType: 'text', content: body.activity.text, from: `28:${bot.appId}` });
    return { status: 201, body: { id: `${channelId};messageid=${id}`, activityId: id } };
  }
}
