import type { Server } from 'node:http';

/**
 * How long Steward's HTTP server keeps an idle keep-alive connection open. Clients and reverse
 * proxies reuse an idle connection for as long as they think it lives (nginx's upstream
 * `keepalive_timeout` is 60 s); a server that closes it first (Node's default is 5 s) races their
 * next request, which then fails with ECONNRESET (a 502 behind a proxy). So the server outlives
 * them, and announces it (`Keep-Alive: timeout=65`).
 */
export const IDLE_CONNECTION_MS = 65_000;

/** How often Node.js looks for requests past their headers' deadline: a tenth of it, 0.1–1 s. */
export function connectionsCheckingMs(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(100, Math.round(headersTimeoutMs / 10)));
}

/**
 * The connection's deadlines, set before the server listens. Idle connections live
 * {@link IDLE_CONNECTION_MS}. A request's headers get `headersTimeoutMs` (the body's deadline,
 * `STEWARD_BODY_TIMEOUT_MS`): past it Node.js answers 408 and closes the connection. Node.js counts
 * it from a message's first byte (a new connection's from its opening), never across the idle time
 * between two requests of a kept-alive connection
 * (https://nodejs.org/docs/latest-v24.x/api/http.html#serverheaderstimeout). It looks for late
 * headers every `connectionsCheckingInterval`, read when the server starts listening: 30 s by
 * default, so trickled headers held a connection 60 to 90 s past its first byte; a tenth of the
 * deadline here.
 */
export function setConnectionDeadlines(server: Server, headersTimeoutMs: number): void {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = headersTimeoutMs;
  // Not in @types/node's Server, but a public property Node.js reads on `listening`
  // (https://nodejs.org/docs/latest-v24.x/api/http.html#httpcreateserveroptions-requestlistener).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    connectionsCheckingMs(headersTimeoutMs);
}
