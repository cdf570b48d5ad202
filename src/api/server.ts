import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import restify from 'restify';
import { NotFound, Unavailable } from '../domain/errors';
import { policyOf } from '../domain/rbac';
import type { RateLimitService } from '../services/access/rateLimits';
import type { RefusalGuard } from '../services/access/refusals';
import { setConnectionDeadlines } from './idleConnections';
import { API_RESPONSE_HEADERS, HttpError, sendJson, toApiError } from './errors';
import type { ApiMetrics } from './metrics';
import type { Authenticator } from './middleware/authenticate';
import { type McpEndpointOptions, mcpEndpoint } from './mcp/endpoint';
import type { OnBehalfOfPolicy } from './middleware/onBehalfOf';
import { buildOpenApiDocument } from './openapi';
import { RouteTable } from './pipeline/dispatch';
import { closeIfBodyUnread, SERVER_NAME, serve } from './pipeline/serve';
import { clientRequestIdOf } from './pipeline/state';
import { API_BASE, type Route } from './route';

export { API_BASE } from './route';

/** What the HTTP server needs; `main.ts` builds it. */
export interface ApiServerOptions {
  routes: readonly Route[];
  authenticator: Authenticator;
  rateLimits: RateLimitService;
  metrics: ApiMetrics;
  logger: Logger;
  tenantId: string;
  /** The deployment's public base URL (read per request: it is known once the server listens). */
  publicUrl: () => string;
  version: string;
  /** How long a request's headers, then its body, may take to arrive before a 408 (`STEWARD_BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** Resolves when the store answers; `/readyz` reports 503 otherwise. */
  ready: () => Promise<void>;
  /** Refused calls (401, 403): limited per source and recorded in aggregate in the `security` trail. */
  refusals?: RefusalGuard;
  /** Peers whose `X-Forwarded-For` names the real client (`STEWARD_TRUSTED_PROXIES`). */
  trustedProxies?: ReadonlySet<string>;
  /** Who may make a call count against a person's rate limit (`X-Steward-On-Behalf-Of`); default nobody. */
  onBehalfOf?: OnBehalfOfPolicy;
  /** The MCP endpoint (`/api/v1.0/mcp`, docs/guides/agents.md), served where the API's routes are. */
  mcp?: McpEndpointOptions;
}

type Req = restify.Request & IncomingMessage;
type Res = restify.Response & ServerResponse;
/** restify's `first` handlers (run before its own work on a request; false ends it), untyped upstream. */
type FirstHandlers = { first(handler: (req: Req, res: Res) => boolean): void };

/** The restify server with the API, health, metrics and the OpenAPI document mounted. */
export function createApiServer(options: ApiServerOptions): restify.Server {
  const server = restify.createServer({
    name: SERVER_NAME,
    handleUncaughtExceptions: false,
    ignoreTrailingSlash: true,
  });
  setConnectionDeadlines(server.server, options.bodyTimeoutMs);
  // The API's requests go straight to their stages when the route table is sure of their route
  // (docs/explanation/request-lifecycle.md); restify's router, pre and handler chains cost more
  // than the rest of a simple read. Anything else goes on to restify, as before.
  const table = new RouteTable(options.routes);
  const mcp =
    options.mcp && options.routes.length > 0
      ? mcpEndpoint(entriesOf(options.routes), options, options.mcp)
      : undefined;
  (server as unknown as FirstHandlers).first((req: Req, res: Res) => {
    if (mcp?.(req, res)) return false;
    const match = table.find(req.method, req.url);
    if (!match) return true;
    serve(match.entry, req, res, match, options).catch((error: unknown) => failed(error, req, res, options));
    return false;
  });
  // Every endpoint (the API's, the bot's, health): an answer written before its request's body was
  // read to its end closes the connection (`closeIfBodyUnread`). restify emits `header` before writing them.
  server.pre((req: Req, res: Res, next: restify.Next) => {
    res.once('header', () => closeIfBodyUnread(req, res));
    return next();
  });
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;

  for (const route of options.routes) {
    const path = API_BASE + route.path.replace(/\{([^}]+)\}/g, ':$1');
    const entry = { route, policy: policyOf(route.operationId) };
    server[route.method === 'delete' ? 'del' : route.method](path, async (req: Req, res: Res) => {
      await serve(entry, req, res, { params: decodedParams(req), search: searchOf(req) }, options);
    });
  }

  server.get(`${API_BASE}/openapi.json`, async (_req: Req, res: Res) => {
    document ??= buildOpenApiDocument(options.routes, {
      version: options.version,
      serverUrl: options.publicUrl(),
    });
    sendJson(res, 200, document);
  });
  server.get('/healthz', async (_req: Req, res: Res) => sendJson(res, 200, { status: 'ok' }));
  server.get('/readyz', async (_req: Req, res: Res) => {
    try {
      await options.ready();
      sendJson(res, 200, { status: 'ready' });
    } catch (error) {
      options.logger.warn({ err: error }, 'readiness check failed');
      const ids = { requestId: randomUUID() };
      sendJson(res, 503, toApiError(new Unavailable('The store does not answer.'), ids).body, {
        'request-id': ids.requestId,
      });
    }
  });
  server.get('/metrics', async (_req: Req, res: Res) => {
    const text = await options.metrics.registry.metrics();
    res.setHeader('Content-Type', options.metrics.registry.contentType);
    res.end(text);
  });

  // Router failures (unknown path, wrong method) answer with the same ApiError as everything else.
  server.on(
    'restifyError',
    (req: Req, res: Res, err: Error & { statusCode?: number }, callback: () => void) => {
      const requestId = randomUUID();
      const clientRequestId = clientRequestIdOf(req);
      const error =
        err.name === 'MethodNotAllowedError'
          ? new HttpError('methodNotAllowed', `${req.method} is not allowed on this path.`)
          : err.name === 'ResourceNotFoundError'
            ? new NotFound(`No operation at ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}.`)
            : err;
      const { status, body, headers } = toApiError(error, { requestId, clientRequestId });
      // restify writes this answer itself once the callback runs; the API's headers go with it.
      res.send(status, body, {
        ...API_RESPONSE_HEADERS,
        ...headers,
        ...idHeaders(requestId, clientRequestId),
      });
      options.metrics.observe('unknown', req.method ?? '', status, 0);
      callback();
    },
  );
  return server;
}

/** A failure of the stages' own (the error stage's): answered as restify answers a handler's failure. */
function failed(error: unknown, req: Req, res: Res, options: ApiServerOptions): void {
  options.logger.error({ err: error }, 'request failed');
  const ids = { requestId: randomUUID(), clientRequestId: clientRequestIdOf(req) };
  const { status, body, headers } = toApiError(error, ids);
  sendJson(res, status, body, { ...headers, ...idHeaders(ids.requestId, ids.clientRequestId) });
}

/** Each route with its policy, by operationId. */
function entriesOf(
  routes: readonly Route[],
): Map<string, { route: Route; policy: ReturnType<typeof policyOf> }> {
  return new Map(routes.map((route) => [route.operationId, { route, policy: policyOf(route.operationId) }]));
}

function decodedParams(req: Req): Record<string, string> {
  return { ...((req.params ?? {}) as Record<string, string>) };
}

function searchOf(req: Req): string {
  return new URL(req.url ?? '/', 'http://localhost').search.slice(1);
}

function idHeaders(requestId: string, clientRequestId: string | undefined): Record<string, string> {
  return clientRequestId
    ? { 'request-id': requestId, 'client-request-id': clientRequestId }
    : { 'request-id': requestId };
}
