import { Kysely, PostgresDialect } from 'kysely';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type restify from 'restify';
import { ApiMetrics } from '../api/metrics';
import { createAuthenticator } from '../api/middleware/authenticate';
import { mountReportPages } from '../api/routes/reports/reportPages';
import { createApiServer } from '../api/server';
import type { Config } from '../config';
import { isLoopbackAddress } from '../lib/loopback';
import { NotFound } from '../domain/errors';
import {
  BACKDATE_DAYS,
  type EmbeddedPlatform,
  renderTeamListPage,
  renderTeamNotFoundPage,
  renderTeamPage,
  renderViewerForeignFormPage,
  renderViewerLoopbackOnlyPage,
  VIEWER_HEADERS,
} from '../platform/embedded';
import type { Platform } from '../platform/port';
import { RateLimitService } from '../services/access/rateLimits';
import type { Store } from '../store/database';
import { RateLimitRepository } from '../store/access/rateLimits';
import { STEWARD_BOT_APP_ID } from '../store/seed/directory';
import type { Database } from '../store/schema';
import { VERSION } from '../version';
import type { Services } from './services';
import { apiRoutes } from './apiRoutes';

/** Whether this process serves the governance API: its role is `all` or `api`. */
export function runsApi(config: Config): boolean {
  return config.role === 'all' || config.role === 'api';
}

/**
 * The HTTP server: the API's routes (none in a worker or bot process, which still answer
 * `/healthz`, `/readyz` and `/metrics`), the report pages and the embedded platform's viewer.
 */
export function buildHttpServer(
  config: Config,
  { store, platform }: { store: Store; platform: Platform },
  services: Services,
  logger: Logger,
  publicUrl: () => string,
  { mcpDirect = true }: { mcpDirect?: boolean } = {},
): restify.Server {
  const api = runsApi(config);
  const s = services;
  const server = createApiServer({
    routes: !api ? [] : apiRoutes(s),
    authenticator: createAuthenticator(config.auth, config.tenantId, (id) => s.directory.isPerson(id)),
    rateLimits: new RateLimitService({ factor: config.rateLimitFactor, store: rateLimitStore(store) }),
    metrics: new ApiMetrics(),
    logger,
    tenantId: config.tenantId,
    publicUrl,
    version: VERSION,
    mcp: {
      version: VERSION,
      authorizationServers: config.auth.mode === 'entra' ? [config.auth.issuer] : [],
      direct: mcpDirect,
    },
    bodyTimeoutMs: config.bodyTimeoutMs,
    ready: () => store.ping(),
    refusals: s.refusals,
    trustedProxies: new Set(config.trustedProxies),
    onBehalfOf: {
      // The bot's own app: MicrosoftAppId, or the seeded bot app that embedded mode mints tokens for.
      botAppId: config.bot.appId ?? (config.auth.mode === 'embedded' ? STEWARD_BOT_APP_ID : undefined),
      isPerson: (id) => s.directory.isPerson(id),
    },
  });
  if (platform.kind === 'embedded' && api) mountViewer(server, platform as EmbeddedPlatform);
  if (api) mountReportPages(server, s.reports, logger);
  return server;
}

/**
 * Callers' budgets in the deployment's database, shared by every process on it. On PostgreSQL they
 * go through the counter pool (commits that do not wait for the disk): a lease lost in a crash gives
 * a caller a few calls back, once.
 */
function rateLimitStore(store: Store): RateLimitRepository {
  if (!store.counterPool) return new RateLimitRepository(store.db);
  return new RateLimitRepository(
    new Kysely<Database>({ dialect: new PostgresDialect({ pool: store.counterPool }) }),
  );
}

/** Starts listening; resolves with the server's own URL (`http://host:port`). */
export async function listen(server: restify.Server, config: Config): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    // restify re-emits the http server's errors (EADDRINUSE, …) on itself.
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

/** Stops accepting connections and resolves once the requests in flight have finished. */
export function closeServer(server: restify.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    // Keep-alive connections become idle as their last responses finish: keep closing them.
    const sweep = setInterval(() => server.server.closeIdleConnections(), 50);
    server.server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.server.closeIdleConnections();
  });
}

/**
 * The embedded platform's read-only pages, where a created team's `webUrl` points. They list
 * private teams with people's e-mails and have no sign-in, so they answer loopback peers only:
 * the embedded tenant is a demo on one machine, and a `webUrl` stored in a team (and shown in
 * cards and API answers) cannot carry a per-reader signature the way report links do.
 */
function mountViewer(server: restify.Server, platform: EmbeddedPlatform): void {
  const send = (res: restify.Response, status: number, html: string) => {
    res.writeHead(status, { ...VIEWER_HEADERS });
    res.end(html);
  };
  const local = (req: restify.Request, res: restify.Response): boolean => {
    if (isLoopbackAddress(req.socket.remoteAddress)) return true;
    send(res, 403, renderViewerLoopbackOnlyPage());
    return false;
  };
  server.get('/platform/teams', async (req: restify.Request, res: restify.Response) => {
    if (local(req, res)) send(res, 200, await renderTeamListPage(platform.teams));
  });
  server.get('/platform/teams/:teamId', async (req: restify.Request, res: restify.Response) => {
    if (!local(req, res)) return;
    const teamId = String(req.params.teamId);
    const page = await renderTeamPage(platform.teams, teamId, await platform.directory.labels());
    send(res, page ? 200 : 404, page ?? renderTeamNotFoundPage(teamId));
  });
  // The viewer's forms ("Mark as active", "Make it older"): only from the viewer's own pages (a page
  // of another site open in a browser on this machine cannot post here: browsers send its Origin).
  const viewerForm = (action: string, act: (teamId: string) => Promise<void>) =>
    server.post(`/platform/teams/:teamId/${action}`, async (req: restify.Request, res: restify.Response) => {
      if (!local(req, res)) return;
      const teamId = String(req.params.teamId);
      if (req.headers.origin !== `http://${req.headers.host}`) {
        send(res, 403, renderViewerForeignFormPage());
        return;
      }
      try {
        await act(teamId);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        send(res, 404, renderTeamNotFoundPage(teamId));
        return;
      }
      res.writeHead(303, { ...VIEWER_HEADERS, location: `/platform/teams/${encodeURIComponent(teamId)}` });
      res.end();
    });
  viewerForm('activity', (teamId) => platform.lifecycle.markActive(teamId));
  viewerForm('backdate', (teamId) => platform.lifecycle.backdate(teamId, BACKDATE_DAYS));
}
