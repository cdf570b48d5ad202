import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { FAKE_GRAPH_CERT, KEY } from './certificate';
import { PUBLISHED_LIMITS, Throttle } from './limits';
import { CommunitiesFake } from './communities';
import { fail, HttpError, type Json, normalise, parseJsonBody, type Reply } from './protocol';
import {
  type Fault,
  type FakeGraphOptions,
  type Handler,
  type LoggedRequest,
  type ParsedRequest,
} from './records';
import { IdentityApi } from './identity';
import { ActivityReports } from './reports';
import { FakeDrives } from './files';
import { WorkspaceFake } from './teamTools';

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
 * - Replication (`api/team-post.md`: "If the group was created less than 15 minutes ago, it's
 *   possible for the Create team call to fail with a 404 error code due to replication delays. The
 *   recommended pattern is to retry the Create team call three times, with a 10 second delay
 *   between calls."): a group made by upsert is invisible for up to `groupReplicationMs` (reads of
 *   it, and `POST /teams` from it, answer 404 meanwhile); a new team answers 404 for
 *   `replicationMs` after it is made.
 * - Throttling (`includes/throttling-teams.md`, `concepts/throttling.md`): see `limits.ts`.
 * - Refusals: channel messages posted with an app-only token (`api/channel-post-messages.md`:
 *   application permissions are for migration only) answer 401; paths that exist only in beta
 *   (`/security/informationProtection/…`) answer 400 on v1.0 as unknown segments; a group request
 *   with more than 20 owners and members (`api/group-post-groups.md`) answers 400; members/add with
 *   more than 200 members (`api/conversationmembers-add.md`) answers 400.
 * - Beta: only the team update (`beta/api/team-update.md`), which takes `discoverySettings` of a
 *   private team (`beta/resources/teamdiscoverysettings.md`); v1.0's team update refuses that
 *   property, and v1.0's team never returns it.
 * - Members in bulk (`api/conversationmembers-add.md`), app installation in a team
 *   (`api/team-post-installedapps.md`), and the Bot Connector's "create conversation" in a channel
 *   (msteams-docs "Send proactive messages": the app must be installed in the team first, else 403).
 * - Planner plans, buckets, tasks and task details (etags, `If-Match`, 412), team tags and the
 *   apps installed in a team: see `teamTools.ts`.
 * - Service principals, who is assigned their app roles, and groups' transitive members, with
 *   the application permissions Graph checks for them (see `appRoles.ts`); granting app roles, as
 *   an administrator does with a delegated token (`appRoleGrants.ts`).
 * - The Teams app catalog: listing with `$filter`, publishing and updating an organisation's app
 *   (`appCatalog.ts`); Steward's own app is there as an organisation's app, its catalog id not its
 *   manifest id (`stewardApp()`).
 * - OData collections with `@odata.nextLink`, Graph error bodies, bearer tokens it issued itself,
 *   and fault injection (429/503 with Retry-After).
 *
 * `scale` multiplies every limit and latency (0.2: a fifth of each), so a benchmark reaches Graph's
 * ceiling in minutes. `main.ts` runs it as its own process.
 *
 * Responses never chain `res.writeHead(...).end(...)`: restify, loaded by other suites in the same
 * Jest process, patches ServerResponse so that writeHead no longer returns the response.
 */
export class FakeGraph extends IdentityApi {
  /** The token buckets, when limits are enforced. */
  readonly throttle: Throttle | undefined;
  private faults: Fault[] = [];
  private server!: Server;
  private readonly routes: Array<[string, RegExp, Handler]>;
  private readonly reports = new ActivityReports(() => this.origin);
  /** Channels' files folders and what is in them (`files.ts`). */
  readonly files = new FakeDrives(
    () => (this.options.filesFolderMs ?? 0) * (this.options.scale ?? 1),
    (request, items) => this.collection(request, items),
  );
  /** Planner plans, team tags and installed apps (`teamTools.ts`). */
  readonly workspace: WorkspaceFake;
  /** Viva Engage communities and their operations (`communities.ts`). */
  readonly communities: CommunitiesFake;

  private constructor(options: FakeGraphOptions) {
    super(options);
    this.throttle = options.limits
      ? new Throttle(options.limits, options.scale ?? 1, options.now)
      : undefined;
    const id = '([^/]+)';
    this.addMicrosoftGraph();
    // Steward's app, published to the organisation's catalog by its administrator.
    if (options.bot)
      this.publishOrganisationApp({ id: options.bot.teamsAppId, name: 'Steward', version: '1.0.0' });
    this.workspace = new WorkspaceFake({
      group: (g) => this.group(g),
      team: (t) => this.team(t),
      app: (a) => this.apps.get(a),
      collection: (r, items) => this.collection(r, items),
      granted: this.granted,
    });
    this.communities = new CommunitiesFake({
      newGroup: (fields) => this.newGroup(fields),
      deleteGroup: (g) => void this.deleteGroup(g),
      userFromBind: (bind) => this.userFromBind(bind),
      collection: (r, items) => this.collection(r, items),
      latencyMs: () => this.drawLatency(),
      scale: options.scale ?? 1,
      origin: () => this.origin,
      granted: this.granted,
    });
    this.routes = [
      ...this.workspace.routes(),
      ...this.communities.routes(),
      ...this.appCatalogRoutes(),
      ...this.appRoleGrantRoutes(),
      ['PATCH', /^\/groups\(uniqueName=(.+)\)$/, (r, key) => this.upsertGroup(r, key)],
      ['GET', /^\/groups\(uniqueName=(.+)\)$/, (r, key) => this.groupByUniqueName(r, key)],
      ['GET', /^\/groups$/, (r) => this.listGroups(r)],
      ['GET', new RegExp(`^/groups/${id}$`), (r, g) => this.getGroup(g)],
      ['PATCH', new RegExp(`^/groups/${id}$`), (r, g) => this.patchGroup(r, g)],
      ['DELETE', new RegExp(`^/groups/${id}$`), (r, g) => this.deleteGroup(g)],
      ['POST', new RegExp(`^/groups/${id}/extensions$`), (r, g) => this.addExtension(r, g)],
      ['GET', new RegExp(`^/groups/${id}/extensions/${id}$`), (r, g, e) => this.getExtension(g, e)],
      ['POST', /^\/teams$/, (r) => this.createTeam(r)],
      ['GET', /^\/teams$/, (r) => this.listTeams(r)],
      [
        'GET',
        /^\/reports\/getTeamsTeamActivityDetail\(period='(\w+)'\)$/,
        (r, period) => this.reports.redirect(period, this.teams.values(), this.groups),
      ],
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
      ['DELETE', new RegExp(`^/teams/${id}/members/${id}$`), (r, t, m) => this.deleteMember(t, m)],
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
      [
        'GET',
        new RegExp(`^/teams/${id}/channels/${id}/filesFolder$`),
        (r, t, c) => {
          const { team, channel } = this.channel(t, c);
          return this.files.filesFolder(team, channel);
        },
      ],
      [
        'POST',
        /^\/drives\/([^/]+)\/items\/([^/:]+)(?::\/(.+):)?\/children$/,
        (r, d, i, p) => this.files.createChild(r, d, i, p || undefined),
      ],
      ['GET', /^\/drives\/([^/]+)\/items\/([^/:]+):\/(.+):$/, (r, d, i, p) => this.files.getByPath(d, i, p)],
      [
        'GET',
        /^\/drives\/([^/]+)\/items\/([^/:]+)\/children$/,
        (r, d, i) => this.files.listChildren(r, d, i),
      ],
      [
        'PUT',
        /^\/drives\/([^/]+)\/items\/([^/:]+):\/(.+):\/content$/,
        (r, d, i, p) => this.files.putContent(r, d, i, p),
      ],
      ['GET', /^\/users$/, (r) => this.listUsers(r)],
      [
        'GET',
        new RegExp(`^/users/${id}$`),
        (r, u) => ({ status: 200, body: this.userJson(r, this.user(u)) }),
      ],
      ['GET', new RegExp(`^/users/${id}/memberOf$`), (r, u) => this.listMemberOf(r, u)],
      ['GET', new RegExp(`^/users/${id}/manager$`), (r, u) => this.getManager(r, u)],
      ...this.appRoleRoutes(),
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
  override get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Graph's base URL on the fake. */
  override get baseUrl(): string {
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
      // The manifest's id, as a deployment sets it: Steward finds the catalog's id itself.
      teamsAppId: this.options.bot?.teamsAppId,
      botServiceUrl: `${this.origin}/botframework/`,
      budget: this.budgetSettings(),
      // Steward's own waits (polling, replication) shrink with the simulator's latencies.
      timeScale: this.options.scale ?? 1,
    };
  }

  /**
   * Steward's Graph budget settings that match this simulator: its limits (the published ones when
   * it enforces none) times its scale.
   */
  budgetSettings() {
    const limits = { ...(this.options.limits ?? PUBLISHED_LIMITS) };
    const scale = this.options.scale ?? 1;
    for (const key of Object.keys(limits) as Array<keyof typeof limits>) limits[key] *= scale;
    return { limits, headroom: 0.9, maxWaitMs: 10_000 };
  }

  /** An undici dispatcher that trusts the fake's certificate. */
  dispatcher(): Agent {
    return new Agent({ connect: { ca: FAKE_GRAPH_CERT } });
  }

  /** The next `times` requests matching `method` and `path` answer `status` (with Retry-After when given). */
  fail(fault: {
    method?: string;
    path: RegExp;
    times: number;
    status: number;
    retryAfter?: string;
    /** Handle the request first, then answer the fault (Graph did the work; its answer was lost). */
    afterHandling?: boolean;
  }): void {
    this.faults.push({
      method: fault.method,
      path: fault.path,
      remaining: fault.times,
      status: fault.status,
      retryAfter: fault.retryAfter,
      afterHandling: fault.afterHandling,
    });
  }

  /** Drops the faults not yet used up. */
  clearFaults(): void {
    this.faults = [];
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
    const raw = Buffer.concat(chunks);
    const text = raw.toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const url = new URL(req.url ?? '/', this.origin);
    const method = req.method ?? 'GET';
    const download = /^\/reports-download\/([\w-]+)$/.exec(url.pathname);
    if (download && method === 'GET') {
      // A pre-authenticated download URL: no token needed, a CSV file rather than JSON.
      this.requests.push({ method, path: url.pathname, headers, body: undefined, at: Date.now() });
      const file = this.reports.download(download[1] ?? '');
      res.writeHead(file.status, { 'content-type': 'application/octet-stream' });
      res.end(file.csv ?? '');
      return;
    }
    const type = headers['content-type'] ?? '';
    let reply: Reply;
    let logged: LoggedRequest | undefined;
    try {
      let body: unknown = text;
      if (type.includes('json') && text) body = parseJsonBody(text);
      if (type.includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(text));
      logged = { method, path: `${url.pathname}${url.search}`, headers, body, at: Date.now() };
      this.requests.push(logged);
      const json = (body && typeof body === 'object' ? body : {}) as Json;
      reply = /^\/(v1\.0|beta)\//.test(url.pathname)
        ? this.graph({
            method,
            url,
            headers,
            body: json,
            raw,
            ...(typeof body === 'string' ? { text: body } : {}),
          })
        : url.pathname.startsWith('/botframework/')
          ? this.connector({ method, url, headers, body: json })
          : await this.entra(method, url, body as Record<string, string>);
    } catch (error) {
      reply = error instanceof HttpError ? error.reply : fail(500, 'InternalServerError', String(error));
    }
    if (logged) logged.status = reply.status;
    const out: Record<string, string> = { 'request-id': randomUUID(), ...reply.headers };
    if (headers['client-request-id']) out['client-request-id'] = headers['client-request-id'];
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    if (payload) out['content-type'] = 'application/json';
    res.writeHead(reply.status, out);
    res.end(payload);
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
    if (this.lapsedTokens.has(auth[1]!))
      return fail(401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.');
    const beta = request.url.pathname.startsWith('/beta/');
    const path = normalise(request.url.pathname.slice(beta ? '/beta'.length : '/v1.0'.length));
    const claims = this.tokenClaims(auth[1]!);
    this.caller = claims;
    if (claims.idtyp === 'user') {
      const refused = this.delegatedRefusal(request, path, claims);
      if (refused) return refused;
    } else if (
      request.method === 'PATCH' &&
      /^\/groups\/[^/]+$/.test(path) &&
      'assignedLabels' in request.body
    ) {
      // `api/group-update.md`: "Application permissions are not supported when updating assignedLabels".
      return fail(401, 'Unauthorized', 'App-only token is not supported.');
    }
    const fault = this.faults.find(
      (f) => f.remaining > 0 && (!f.method || f.method === request.method) && f.path.test(path),
    );
    if (fault) {
      fault.remaining--;
      if (fault.afterHandling) this.route(request, path);
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
    return this.route(request, path, beta);
  }

  /** `GET /groups/{id}`: 404 while the group is new and not replicated yet. */
  private getGroup(id: string): Reply {
    const group = this.group(id);
    if (this.replicating(group))
      return fail(404, 'Request_ResourceNotFound', `Resource '${id}' does not exist.`);
    return { status: 200, body: this.groupJson(group) };
  }

  private route(request: ParsedRequest, path: string, beta = false): Reply {
    if (beta) {
      const teamId = new RegExp(`^/teams/([^/()]+)$`).exec(path)?.[1];
      return request.method === 'PATCH' && teamId !== undefined
        ? this.patchBetaTeam(request, teamId)
        : fail(400, 'BadRequest', `The simulator knows no beta path but a team's update: '${path}'.`);
    }
    for (const [method, pattern, handler] of this.routes) {
      const match = method === request.method ? pattern.exec(path) : null;
      if (match) return handler(request, ...match.slice(1).map((p) => p ?? ''));
    }
    return fail(400, 'BadRequest', `Resource not found for the segment '${path}'.`);
  }
}
