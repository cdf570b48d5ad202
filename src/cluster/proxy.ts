import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** A process behind the entry: where it listens and whether it takes requests now. */
export interface Backend {
  readonly name: string;
  readonly port: number;
  /** Set by the supervisor: true once `/readyz` answered, false while the process is down. */
  ready: boolean;
}

/** Backends of one role, taken in turn (round-robin), skipping those that are not ready. */
export class BackendPool {
  private turn = 0;
  private readonly members: Backend[] = [];

  constructor(readonly role: string) {}

  get backends(): readonly Backend[] {
    return this.members;
  }

  add(backend: Backend): void {
    this.members.push(backend);
  }

  /** The next ready backend, or undefined when none is. */
  next(): Backend | undefined {
    for (let i = 0; i < this.backends.length; i += 1) {
      const backend = this.backends[this.turn++ % this.backends.length]!;
      if (backend.ready) return backend;
    }
    return undefined;
  }
}

/** Which role serves a path: the API (and its pages), the bot, or nobody (404). */
export function routeOf(url: string): 'api' | 'bot' | undefined {
  const path = url.split('?', 1)[0]!;
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under('/api/v1.0') || under('/reports') || under('/platform')) return 'api';
  if (path === '/healthz' || path === '/readyz') return 'api';
  if (under('/api/messages') || under('/api/notifications')) return 'bot';
  return undefined;
}

// Headers of one connection, not of the message (RFC 9110 §7.6.1): never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** `headers` without hop-by-hop ones, including those the `Connection` header names. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  }
  return kept;
}

/** What the entry needs: a pool per role and a logger. */
export interface EntryProxyOptions {
  api: BackendPool;
  bot: BackendPool;
  log: Logger;
  /** Open connections to one backend at most (keep-alive sockets are reused). */
  maxSocketsPerBackend?: number;
  /**
   * How long a backend connection may sit idle before the proxy closes it: well inside the
   * backends' own keep-alive (65 s), so the proxy never sends a request on a connection the
   * backend is closing (Node's agent, without a timeout of its own, keeps idle sockets for ever,
   * whatever the backend announces).
   */
  idleBackendSocketMs?: number;
}

/** The default of `idleBackendSocketMs`: half the 65 s a Steward keeps an idle connection. */
export const IDLE_BACKEND_SOCKET_MS = 30_000;

/**
 * The cluster's entry: a reverse proxy on node:http that sends each request to the next ready
 * process of the role its path belongs to, streaming bodies both ways over keep-alive connections.
 * A backend that cannot be reached answers 502 with an ApiError body.
 */
export function createEntryProxy(options: EntryProxyOptions): http.Server {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.maxSocketsPerBackend ?? 128,
    // A socket's timeout closes it only while it is free; a request in flight is not cut.
    timeout: options.idleBackendSocketMs ?? IDLE_BACKEND_SOCKET_MS,
  });
  const server = http.createServer((req, res) => forward(req, res, options, agent));
  server.on('close', () => agent.destroy());
  return server;
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  options: EntryProxyOptions,
  agent: http.Agent,
): void {
  const role = routeOf(req.url ?? '/');
  if (!role) return fail(req, res, 404, 'notFound', `No operation at ${req.method} ${pathOf(req)}.`);
  const pool = role === 'api' ? options.api : options.bot;
  if (pool.backends.length === 0) {
    return fail(req, res, 404, 'notFound', `This deployment runs no ${role} process for ${pathOf(req)}.`);
  }
  const backend = pool.next();
  if (!backend) return fail(req, res, 502, 'badGateway', `No ${role} process is ready; try again shortly.`);

  const headers = endToEnd(req.headers);
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${String(prior)}, ${client}` : client;
  headers['x-forwarded-proto'] ??= 'http';
  if (req.headers.host) headers['x-forwarded-host'] ??= req.headers.host;

  const upstream = http.request({
    host: '127.0.0.1',
    port: backend.port,
    method: req.method,
    path: req.url,
    headers,
    agent,
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  let callerGone = false;
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (callerGone) return;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    options.log.warn({ backend: backend.name, code: error.code, path: pathOf(req) }, 'backend unreachable');
    fail(req, res, 502, 'badGateway', `The ${role} process did not answer; try again shortly.`);
  });
  // The caller went away before the answer was complete: stop the backend's work on it too.
  res.on('close', () => {
    if (res.writableFinished) return;
    callerGone = true;
    upstream.destroy();
  });
  req.on('error', () => {
    callerGone = true;
    upstream.destroy();
  });
  req.pipe(upstream);
}

/** The path of a request without its query (which may carry a search term). */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?', 1)[0]!;
}

/** Answers with the API's error shape, as a Steward process would. */
function fail(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  const requestId = randomUUID();
  const clientRequestId = req.headers['client-request-id'];
  const innerError: Record<string, string> = { date: new Date().toISOString(), 'request-id': requestId };
  if (typeof clientRequestId === 'string') innerError['client-request-id'] = clientRequestId;
  const text = JSON.stringify({ error: { code, message, innerError } });
  // Whatever the request body holds is not read: drop it rather than keep the socket busy.
  req.resume();
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'request-id': requestId,
    ...(typeof clientRequestId === 'string' ? { 'client-request-id': clientRequestId } : {}),
  });
  res.end(text);
}
