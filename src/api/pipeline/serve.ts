import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { OperationPolicy } from '../../domain/rbac';
import type { RateLimitService } from '../../services/access/rateLimits';
import type { RefusalGuard } from '../../services/access/refusals';
import { sendJson } from '../errors';
import type { ApiMetrics } from '../metrics';
import type { Authenticator } from '../middleware/authenticate';
import { bodyReadWhole } from '../../lib/readBody';
import { CHARGED_TURN_HEADER } from '../middleware/chargedTurn';
import { ON_BEHALF_OF_HEADER, type OnBehalfOfPolicy } from '../middleware/onBehalfOf';
import type { Route } from '../route';
import { authenticate } from './authenticate';
import { handle } from './handle';
import { limit } from './limit';
import { logRequest } from './log';
import { mapError } from './mapError';
import { parseRequest } from './parse';
import { clientRequestIdOf, requestState } from './state';

/** The `Server` header of every answer. */
export const SERVER_NAME = 'steward';

/** What the request path needs of the server (`ApiServerOptions`). */
export interface ServeOptions {
  authenticator: Authenticator;
  rateLimits: RateLimitService;
  metrics: Pick<ApiMetrics, 'observe'>;
  logger: Logger;
  tenantId: string;
  publicUrl: () => string;
  bodyTimeoutMs: number;
  refusals?: RefusalGuard;
  trustedProxies?: ReadonlySet<string>;
  onBehalfOf?: OnBehalfOfPolicy;
}

/** A route with its policy from the RBAC table, looked up once. */
export interface RouteEntry {
  route: Route;
  policy: OperationPolicy;
}

/**
 * One API request through its stages (docs/explanation/request-lifecycle.md): authenticate, limit,
 * parse, handle; a failure of any of them goes to map errors; every request ends with log.
 */
export async function serve(
  entry: RouteEntry,
  req: IncomingMessage,
  res: ServerResponse,
  inputs: { params: Record<string, string>; search: string },
  options: ServeOptions,
): Promise<void> {
  const { route, policy } = entry;
  const state = requestState(randomUUID(), clientRequestIdOf(req));
  state.headers.push('Server', SERVER_NAME);
  try {
    const who = await authenticate(options.authenticator, req.headers.authorization, policy, state);
    const headers = {
      onBehalfOf: req.headers[ON_BEHALF_OF_HEADER],
      chargedTurn: req.headers[CHARGED_TURN_HEADER],
    };
    await limit(options, who.identity, headers, policy, state);
    const input = await parseRequest(
      route,
      { params: inputs.params, search: inputs.search, req },
      options.bodyTimeoutMs,
    );
    const reply = await handle(route, who, input, state.requestId, options.publicUrl());
    state.status = reply.status;
    closeIfBodyUnread(req, res);
    sendJson(res, reply.status, reply.body, reply.headers, state.headers);
  } catch (error) {
    const mapped = await mapError(error, route, req, state, options);
    state.status = mapped.status;
    closeIfBodyUnread(req, res);
    sendJson(res, mapped.status, mapped.body, mapped.headers, state.headers);
  } finally {
    logRequest(options, route, state);
  }
}

/**
 * An answer written before its request's body was read to its end (a refusal, a 408, a 413)
 * closes the connection: Node.js would otherwise read and drop the rest before the next request,
 * so a caller trickling a body held the connection until Node.js's request timeout.
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (!bodyReadWhole(req) && announcesBody(req) && !res.headersSent) res.setHeader('Connection', 'close');
}

/** True when the request says a body follows its headers (a length above zero, or chunks). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
