import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import restify from 'restify';
import type { z } from 'zod';
import type { Caller } from '../domain/caller';
import { Forbidden, NotFound, RateLimited, Unavailable, ValidationFailed } from '../domain/errors';
import { bypassesCondition, isGranted, policyOf } from '../domain/rbac';
import { actorOf, type AuditActor } from '../domain/audit';
import { findControlCharacter } from '../domain/controlCharacters';
import type { RateLimitService } from '../services/access/rateLimits';
import type { RefusalGuard } from '../services/access/refusals';
import { clientAddress } from '../lib/network';
import { setConnectionDeadlines } from './idleConnections';
import { API_RESPONSE_HEADERS, detailsOf, HttpError, sendJson, toApiError } from './errors';
import type { ApiMetrics } from './metrics';
import { type Authenticator, bearerTokenOf } from './middleware/authenticate';
import { budgetHolderOf, ON_BEHALF_OF_HEADER, type OnBehalfOfPolicy } from './middleware/onBehalfOf';
import { readJsonBody } from './middleware/readJsonBody';
import { buildOpenApiDocument } from './openapi';
import { API_BASE, type Route } from './route';

export { API_BASE } from './route';

const NONE: ReadonlySet<string> = new Set();

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
}

type Req = restify.Request & IncomingMessage;
type Res = restify.Response & ServerResponse;

/** The restify server with the API, health, metrics and the OpenAPI document mounted. */
export function createApiServer(options: ApiServerOptions): restify.Server {
  const server = restify.createServer({
    name: 'steward',
    handleUncaughtExceptions: false,
    ignoreTrailingSlash: true,
  });
  setConnectionDeadlines(server.server, options.bodyTimeoutMs);
  // Every endpoint (the API's, the bot's, health): an answer written before its request's body was
  // read to its end (a refusal, a 408, a 413) closes the connection. Node.js would otherwise read
  // and drop the rest before the next request, so a caller trickling a body held the connection
  // until Node.js's request timeout, refused or not. restify emits `header` before writing them.
  server.pre((req: Req, res: Res, next: restify.Next) => {
    res.once('header', () => {
      if (!req.readableEnded && announcesBody(req)) res.setHeader('Connection', 'close');
    });
    return next();
  });
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;

  for (const route of options.routes) {
    const path = API_BASE + route.path.replace(/\{([^}]+)\}/g, ':$1');
    server[route.method === 'delete' ? 'del' : route.method](path, async (req: Req, res: Res) => {
      await serve(route, req, res, options);
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

/** Runs one request through authentication, authorisation, rate limiting, validation and the handler. */
async function serve(route: Route, req: Req, res: Res, options: ApiServerOptions): Promise<void> {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  const clientRequestId = clientRequestIdOf(req);
  for (const [name, value] of Object.entries(idHeaders(requestId, clientRequestId)))
    res.setHeader(name, value);
  let caller: Caller | undefined;
  let actor: AuditActor | undefined;
  let onBehalfOf: string | undefined;
  let status = 500;
  const source = clientAddress(
    req.socket.remoteAddress,
    req.headers['x-forwarded-for'],
    options.trustedProxies ?? NONE,
  );
  try {
    const policy = policyOf(route.operationId);
    const identity = await options.authenticator.authenticate(req.headers.authorization);
    actor = actorOf(identity);
    if (!isGranted(policy, identity.roles)) {
      throw new Forbidden(`This operation needs one of these roles: ${policy.roles.join(', ')}.`);
    }
    caller = { ...identity, privileged: bypassesCondition(policy, identity.roles), requestId };
    // The budget spent: the caller's, or the person's the bot says it calls for.
    const holder = await budgetHolderOf(identity, req.headers[ON_BEHALF_OF_HEADER], options.onBehalfOf);
    onBehalfOf = holder.onBehalfOf;
    const decision = await options.rateLimits.consume(options.tenantId, holder.id, policy.tier);
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new RateLimited(
        `Too many calls: ${decision.limit} a minute are allowed for this operation.`,
        decision.retryAfterSeconds,
      );
    }
    const params = parse(route.params, decodedParams(req), 'path');
    const query = parse(route.query, queryOf(req), 'query');
    const headers = parse(route.headers, req.headers, 'header');
    const body = route.body
      ? parse(route.body, await readJsonBody(req, options.bodyTimeoutMs), 'body')
      : undefined;
    const reply = await route.handle({
      caller,
      params,
      query,
      body,
      headers,
      requestId,
      baseUrl: options.publicUrl(),
      ...(identity.kind === 'user'
        ? { person: { userId: identity.id, assertion: bearerTokenOf(req.headers.authorization) } }
        : {}),
    });
    status = reply.status;
    sendJson(res, reply.status, reply.body, reply.headers);
  } catch (error) {
    let mapped = toApiError(error, { requestId, clientRequestId });
    // An address past its refusals is answered 429 for what it would be refused, and nothing is
    // recorded; a call whose token verifies and grants the operation is served whatever its address.
    const blocked =
      mapped.status === 401 || mapped.status === 403 ? (options.refusals?.blockedFor(source) ?? 0) : 0;
    if (blocked > 0)
      mapped = toApiError(
        new RateLimited('Too many refused calls from this address: wait before trying again.', blocked),
        { requestId, clientRequestId },
      );
    status = mapped.status;
    if (status >= 500)
      options.logger.error({ err: error, requestId, operation: route.operationId }, 'request failed');
    if (status === 401 || status === 403) {
      await options.refusals?.refused({
        source,
        status,
        operationId: route.operationId,
        method: req.method ?? '',
        path: new URL(req.url ?? '/', 'http://localhost').pathname,
        reason: mapped.body.error.message,
        requestId,
        actor,
      });
    }
    sendJson(res, status, mapped.body, mapped.headers);
  } finally {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    options.metrics.observe(route.operationId, route.method, status, seconds);
    if (options.logger.isLevelEnabled('info')) {
      options.logger.info(
        {
          requestId,
          operation: route.operationId,
          status,
          ms: Math.round(seconds * 1e4) / 10,
          caller: caller?.id,
          onBehalfOf,
        },
        'request',
      );
    }
  }
}

function parse<T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  const control = where === 'header' ? undefined : findControlCharacter(value, where, schema);
  if (control?.loneSurrogate) {
    const code = `U+${control.codePoint.toString(16).toUpperCase()}`;
    throw new ValidationFailed(`The request ${where} holds text that is not well-formed Unicode.`, [
      {
        code: 'malformedText',
        target: control.target,
        message: `A lone surrogate (here ${code}, half of a pair) is not a character: send well-formed Unicode text.`,
      },
    ]);
  }
  if (control?.kind === 'formatCharacter') {
    const code = `U+${control.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ValidationFailed(`The request ${where} holds a character that changes how text reads.`, [
      {
        code: 'formatCharacter',
        target: control.target,
        message: `Direction and display controls (here ${code}) are not allowed: they make text read other than it is written.`,
      },
    ]);
  }
  if (control) {
    const code = `U+${control.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ValidationFailed(`The request ${where} holds a control character.`, [
      {
        code: 'controlCharacter',
        target: control.target,
        message: control.singleLine
          ? `Control characters (here ${code}) are not allowed in this one-line field, tab and line breaks included.`
          : `Control characters (here ${code}) are not allowed; tab and line breaks are.`,
      },
    ]);
  }
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    const message =
      where === 'body' ? 'The request body is not valid.' : `The request ${where} is not valid.`;
    throw new ValidationFailed(message, detailsOf(result.error, where));
  }
  return result.data;
}

function decodedParams(req: Req): Record<string, string> {
  return { ...((req.params ?? {}) as Record<string, string>) };
}

function queryOf(req: Req): Record<string, string> {
  const query: Record<string, string> = {};
  const search = new URL(req.url ?? '/', 'http://localhost').searchParams;
  for (const [name, value] of search) query[name] = value;
  return query;
}

/** `client-request-id` is echoed when it is a reasonable id; anything else is ignored. */
function clientRequestIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['client-request-id'];
  return typeof value === 'string' && /^[\x21-\x7e]{1,128}$/.test(value) ? value : undefined;
}

function idHeaders(requestId: string, clientRequestId: string | undefined): Record<string, string> {
  return clientRequestId
    ? { 'request-id': requestId, 'client-request-id': clientRequestId }
    : { 'request-id': requestId };
}

/** True when the request says a body follows its headers (a length above zero, or chunks). */
function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
