/**
 * How long Steward's HTTP server keeps an idle keep-alive connection open. Clients and reverse
 * proxies reuse an idle connection for as long as they think it lives (nginx's upstream
 * `keepalive_timeout` is 60 s); a server that closes it first (Node's default is 5 s) races their
 * next request, which then fails with ECONNRESET (a 502 behind a proxy). So the server outlives
 * them, and announces it (`Keep-Alive: timeout=65`).
 */
export const IDLE_CONNECTION_MS = 65_000;
