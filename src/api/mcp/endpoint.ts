import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { HttpError, sendJson } from '../errors';
import { readJsonBody } from '../middleware/readJsonBody';
import { logRequest } from '../pipeline/log';
import { mapError } from '../pipeline/mapError';
import { closeIfBodyUnread, type RouteEntry, type ServeOptions } from '../pipeline/serve';
import { clientRequestIdOf, requestState } from '../pipeline/state';
import { API_BASE } from '../route';
import type { CallerRequest } from './dispatch';
import { type McpCatalogue, mcpCatalogue, mcpServerFor, runTool } from './mcpServer';
import { directAnswer, directCallOf } from './directCall';

/** Where Steward serves MCP (Streamable HTTP), below the API. */
export const MCP_PATH = `${API_BASE}/mcp`;
/** Its protected-resource metadata (RFC 9728 §3.1: the well-known prefix before the resource's path). */
export const MCP_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

/** What the MCP endpoint needs besides the request path's options. */
export interface McpEndpointOptions {
  version: string;
  /**
   * The authorization servers whose tokens the API accepts (Entra ID's issuer), for the metadata;
   * empty with the embedded issuer, whose tokens `npm run token` mints.
   */
  authorizationServers: readonly string[];
  /** Whether plain tool calls are answered without the SDK's per-request server (directCall.ts); default true. */
  direct?: boolean;
}

/** The endpoint's own name in metrics, logs and refusals (it is no operation of the RBAC table). */
const ENDPOINT = { operationId: 'mcp', method: 'post' } as const;

/**
 * The MCP endpoint: `handle(req, res)` answers a request to MCP_PATH or MCP_METADATA_PATH and
 * returns true, or returns false for any other path. Every MCP request must carry a token the API
 * accepts (401 with the metadata's URL otherwise); the protocol is served statelessly, one server
 * per request (any process answers any request), and each tool runs its operation as the caller.
 */
export function mcpEndpoint(
  entries: ReadonlyMap<string, RouteEntry>,
  options: ServeOptions,
  endpoint: McpEndpointOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const catalogue = mcpCatalogue(entries, endpoint.version);
  const server = { name: 'steward', version: endpoint.version };
  const handler: McpHttpHandler = createMcpHandler(
    ({ authInfo, era }) =>
      mcpServerFor(catalogue, authInfo?.extra?.from as CallerRequest, options, era, authInfo?.extra?.message),
    {
      onerror: (error) => {
        if (options.logger.isLevelEnabled('debug'))
          options.logger.debug({ err: error }, 'mcp request refused');
      },
    },
  );
  return (req, res) => {
    const queryAt = req.url?.indexOf('?') ?? -1;
    const path = queryAt < 0 ? req.url : req.url?.slice(0, queryAt);
    if (path === MCP_METADATA_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, protectedResourceMetadata(options.publicUrl(), endpoint.authorizationServers));
      return true;
    }
    if (path !== MCP_PATH) return false;
    serveMcp({ handler, catalogue, server, direct: endpoint.direct !== false }, req, res, options).catch(
      (error: unknown) => {
        options.logger.error({ err: error }, 'mcp request failed');
        if (!res.headersSent) sendJson(res, 500, undefined);
        res.end();
      },
    );
    return true;
  };
}

/** The protected-resource metadata of Steward's MCP endpoint (RFC 9728 §2). */
export function protectedResourceMetadata(
  publicUrl: string,
  authorizationServers: readonly string[],
): Record<string, unknown> {
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    ...(authorizationServers.length > 0 ? { authorization_servers: [...authorizationServers] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Steward',
    resource_documentation: `${publicUrl}${API_BASE}/openapi.json`,
  };
}

/** What answers MCP requests: the SDK's handler, and the tools its hot path calls directly. */
interface McpServing {
  handler: McpHttpHandler;
  catalogue: McpCatalogue;
  server: { name: string; version: string };
  direct: boolean;
}

async function serveMcp(
  { handler, catalogue, server, direct: answersDirectly }: McpServing,
  req: IncomingMessage,
  res: ServerResponse,
  options: ServeOptions,
): Promise<void> {
  // The request's ids go in every answer's one `writeHead` with its other headers (state.headers):
  // a header set beforehand would send the whole list through Node.js's `setHeader`, one at a time.
  const state = requestState(randomUUID(), clientRequestIdOf(req));
  const authorization = req.headers.authorization;
  try {
    const identity = await options.authenticator.authenticate(authorization);
    state.caller = { ...identity, privileged: false, requestId: state.requestId };
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new HttpError(
        'methodNotAllowed',
        `${req.method} is not allowed here: Steward serves MCP statelessly, by POST.`,
      );
    }
    const body = await readJsonBody(req, options.bodyTimeoutMs);
    const from: CallerRequest = { req, authorization, identity };
    const direct = answersDirectly ? directCallOf(catalogue, req.headers, body) : undefined;
    if (direct) {
      const answer = directAnswer(
        direct,
        await runTool(direct.tool, direct.args, from, options, direct.era),
        server,
      );
      state.status = 200;
      writeWhole(res, 200, answer.headers, answer.contentType, answer.body, state.headers);
      return;
    }
    const response = await handler.fetch(webRequest(req, options.publicUrl()), {
      authInfo: {
        token: '',
        clientId: identity.id,
        scopes: [...identity.roles],
        extra: { from, message: body },
      },
      parsedBody: body,
    });
    state.status = response.status;
    // Stateless answers are whole (no stream outlives its request): written at once, as sendJson does.
    const bytes = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!WRITTEN_HERE.has(name)) headers[name] = value;
    });
    writeWhole(res, response.status, headers, response.headers.get('content-type'), bytes, state.headers);
  } catch (error) {
    const mapped = await mapError(error, ENDPOINT, req, state, options);
    state.status = mapped.status;
    closeIfBodyUnread(req, res);
    const headers = { ...mapped.headers };
    if (mapped.status === 401)
      headers['WWW-Authenticate'] = challengeOf(headers['WWW-Authenticate'], options);
    sendJson(res, mapped.status, mapped.body, headers, state.headers);
  } finally {
    logRequest(options, ENDPOINT, state);
  }
}

/** The SDK's response headers written by `writeWhole` itself (or by Node.js). */
const WRITTEN_HERE = new Set(['content-type', 'content-length', 'cache-control', 'connection']);

/**
 * Writes a whole answer in one `writeHead`, with the API's response headers and the request's
 * (`more`, a flat list of names and values). A body in pieces is written piece by piece in the
 * same tick, which Node.js sends in one write with the head.
 */
function writeWhole(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  contentType: string | null,
  body: Buffer | readonly Buffer[],
  more: readonly string[],
): void {
  const list = ['Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff', ...more];
  for (const name in headers) list.push(name, headers[name]!);
  if (contentType) list.push('Content-Type', contentType);
  const pieces = Buffer.isBuffer(body) ? [body] : body;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  list.push('Content-Length', String(length));
  res.writeHead(status, list);
  for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]);
  res.end(pieces[pieces.length - 1]);
}

/** The API's Bearer challenge with the metadata's URL (RFC 9728 §5.1). */
function challengeOf(challenge: string | undefined, options: ServeOptions): string {
  const metadata = `resource_metadata="${options.publicUrl()}${MCP_METADATA_PATH}"`;
  return !challenge || challenge === 'Bearer' ? `Bearer ${metadata}` : `${challenge}, ${metadata}`;
}

/** The Node.js request as a web request for the SDK (the body goes apart, already parsed). */
function webRequest(req: IncomingMessage, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`${publicUrl}${req.url ?? MCP_PATH}`, { method: req.method ?? 'POST', headers });
}
