import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type restify from 'restify';
import { ApiMetrics } from './api/metrics';
import {
  type BotIdentity,
  createStewardBot,
  EmbeddedIdentity,
  MESSAGES_PATH,
  NOTIFICATIONS_PATH,
  ProductionIdentity,
  type StewardBotRuntime,
} from './bot';
import { LONG_WAIT_MS } from './bot/apiFailures';
import { StewardClient } from './client';
import { forwardedHops, isLoopbackAddress } from './domain/network';
import { createAuthenticator } from './api/middleware/authenticate';
import { auditRoutes } from './api/routes/audit';
import { catalogRoutes } from './api/routes/catalog';
import { directoryRoutes } from './api/routes/directory';
import { hookRoutes } from './api/routes/hooks';
import { metadataRoutes } from './api/routes/metadata';
import { provisioningRoutes } from './api/routes/provisioning';
import { mountReportPages } from './api/routes/reportPages';
import { reportRoutes } from './api/routes/reports';
import { teamRoutes } from './api/routes/teams';
import { createApiServer } from './api/server';
import { type Config, ConfigError, loadConfig, redactUrl } from './config';
import { setHeapGrowth } from './heap';
import { createLogger } from './logger';
import {
  createEmbeddedPlatform,
  type EmbeddedPlatform,
  renderTeamListPage,
  renderTeamNotFoundPage,
  renderTeamPage,
  seedEmbeddedTeams,
  VIEWER_HEADERS,
} from './platform/embedded';
import { createGraphPlatform } from './platform/graph';
import type { Platform } from './platform/port';
import { ApprovalService } from './services/approvals';
import { AuditLog } from './services/audit';
import { EmbeddedTokenIssuer } from './services/tokens';
import { CatalogService } from './services/catalog';
import { DirectoryService } from './services/directory';
import { EventBus } from './services/events';
import { HookService } from './services/hooks';
import { JobWorker } from './services/jobWorker';
import { MetadataService } from './services/metadata';
import { ProvisioningService } from './services/provisioning';
import { ProvisioningHandler, TeamArchiveHandler } from './services/provisioningHandler';
import { RateLimitService } from './services/rateLimits';
import { RefusalGuard } from './services/refusals';
import { ReportService } from './services/reports';
import { TeamService } from './services/teams';
import { WebhookDeliveryHandler } from './services/webhookDelivery';
import { type HostResolver, systemResolver, WebhookSender } from './services/webhookSender';
import { ApprovalRepository } from './store/approvals';
import { AuditRepository } from './store/audit';
import { migrate, openStore, type Store } from './store/database';
import { DirectoryRepository } from './store/directory';
import { HookRepository } from './store/hooks';
import { JobRepository } from './store/jobs';
import { MetadataRepository } from './store/metadata';
import { OutboxRepository } from './store/outbox';
import { ReportRepository } from './store/reports';
import { BotStateRepository } from './store/botState';
import { seedDemoData } from './store/seed';
import { STEWARD_BOT_APP_ID } from './store/seed/directory';
import { TemplateRepository } from './store/templates';

/** A running Steward: its address, its parts, and how to stop it. */
export interface Steward {
  readonly url: string;
  readonly server: restify.Server;
  readonly store: Store;
  /** Stops accepting connections, lets requests in flight finish, then closes the store. */
  close(): Promise<void>;
}

/** The package version, for the OpenAPI document and logs. */
export const VERSION: string = (
  JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Parts the composition root uses instead of building its own: the injection point for tests and
 * for embedding Steward in another process.
 */
export interface StewardOverrides {
  /**
   * The collaboration platform, used instead of the one `config.platform` describes (e.g. the Graph
   * adapter pointed at a fake Graph). Steward still calls its `close()` on shutdown.
   */
  platform?: Platform;
  /** Resolves webhook hosts instead of the system resolver (tests of the address checks). */
  resolveHost?: HostResolver;
  /** Whether the bot registers its webhook at start-up (default true; false leaves it to polling). */
  botWebhook?: boolean;
}

/**
 * The composition root: opens and migrates the store, seeds the demo tenant, builds the services
 * and starts the HTTP server. The only place that knows every layer.
 */
export async function startSteward(
  config: Config,
  logger: Logger,
  overrides: StewardOverrides = {},
): Promise<Steward> {
  setHeapGrowth(config.heapGrowthPercent);
  const store = openStore(config.database);
  // The public URL defaults to where the server listens, known only once it does.
  let publicUrl = config.publicUrl ?? '';
  let platform: Platform;
  let identity: BotIdentity | undefined;
  try {
    const applied = await migrate(store.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'store migrated');
    const seeded = config.seedDemoData && (await seedDemoData(store));
    if (seeded) logger.info('demo directory and catalog seeded');
    platform = overrides.platform ?? (await buildPlatform(config, store, () => publicUrl, seeded));
    if (config.bot.enabled && (config.role === 'all' || config.role === 'bot')) {
      // A bot process alone serves no API: it must be told where one is.
      if (config.role === 'bot' && !config.bot.apiUrl)
        throw new ConfigError('STEWARD_API_URL', 'is required when STEWARD_ROLE=bot');
      identity = botIdentity(config, platform);
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  const now = () => new Date();
  const directory = new DirectoryService(platform.directory);
  const templates = new TemplateRepository(store.db);
  const jobs = new JobRepository(store.db);
  const approvalStore = new ApprovalRepository(store.db);
  const events = new EventBus(new OutboxRepository(store.db), config.tenantId);
  const metadataStore = new MetadataRepository(store.db);
  const audit = new AuditLog(new AuditRepository(store.db), config.tenantId);
  const catalog = new CatalogService({ db: store.db, templates, directory, audit, log: logger });
  const metadata = new MetadataService({
    db: store.db,
    store: metadataStore,
    teams: platform.teams,
    audit,
    now,
  });
  const runsWorker = (config.role === 'all' || config.role === 'worker') && config.workers.concurrency > 0;
  const runsApi = config.role === 'all' || config.role === 'api';
  const runsBot = identity !== undefined;
  const hookStore = new HookRepository(store.db);
  const webhookPolicy = { allowLoopback: config.webhooks.allowLoopback };
  const resolveHost = overrides.resolveHost ?? systemResolver;
  const sender = new WebhookSender({ ...config.webhooks, policy: webhookPolicy, resolve: resolveHost });
  const worker = new JobWorker(
    {
      db: store.db,
      jobs,
      events,
      audit,
      handlers: {
        ProvisioningRequest: new ProvisioningHandler(platform.teams, events, audit, {
          db: store.db,
          service: metadata,
          namespace: config.provisioningMetadataNamespace,
        }),
        TeamArchiveRequest: new TeamArchiveHandler(platform.teams, events, audit),
        WebhookDelivery: new WebhookDeliveryHandler(
          { hooks: hookStore, audit, sender, log: logger },
          { ...config.webhooks, userAgent: `Steward-Webhook/${VERSION}` },
        ),
      },
    },
    {
      owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      concurrency: config.workers.concurrency,
      leaseMs: config.workers.leaseMs,
      pollMs: config.workers.pollMs,
      log: logger,
    },
  );
  // Jobs queued by this process start at once when it runs a worker; other workers poll.
  const onQueued = () => worker.wake();
  const hooks = new HookService({
    db: store.db,
    hooks: hookStore,
    jobs,
    audit,
    policy: webhookPolicy,
    resolve: resolveHost,
    now,
  });
  // Deliveries are queued in the transaction of each event; committed events wake the worker.
  events.onRecord(hooks.enqueueDeliveries);
  events.subscribe(onQueued);
  const common = { db: store.db, jobs, approvals: approvalStore, events, audit, directory, onQueued, now };
  const provisioning = new ProvisioningService({ ...common, catalog });
  const approvals = new ApprovalService({ ...common, templates });
  const teams = new TeamService({ ...common, teams: platform.teams });
  const reports = new ReportService({
    store: new ReportRepository(store.db),
    teams: platform.teams,
    directory: platform.directory,
    tenantId: config.tenantId,
    urlSecret: config.reports.urlSecret,
    metabase: config.reports.metabase,
    now,
  });
  const refusals = new RefusalGuard({
    perMinute: config.refusalsPerMinute,
    audit,
    onError: (error) => logger.error({ err: error }, 'could not record a refused call'),
  });
  const server = createApiServer({
    routes: !runsApi
      ? []
      : [
          ...catalogRoutes(catalog),
          ...directoryRoutes(directory),
          ...provisioningRoutes(provisioning, approvals),
          ...teamRoutes(teams),
          ...hookRoutes(hooks),
          ...metadataRoutes(metadata),
          ...auditRoutes(audit),
          ...reportRoutes(reports),
        ],
    authenticator: createAuthenticator(config.auth, config.tenantId),
    rateLimits: new RateLimitService({ factor: config.rateLimitFactor, pgPool: store.counterPool }),
    metrics: new ApiMetrics(),
    logger,
    tenantId: config.tenantId,
    publicUrl: () => publicUrl,
    version: VERSION,
    ready: () => store.ping(),
    refusals,
    trustedProxies: new Set(config.trustedProxies),
  });
  if (platform.kind === 'embedded' && runsApi) mountViewer(server, platform as EmbeddedPlatform);
  if (runsApi) mountReportPages(server, reports, logger);
  // The bot needs the API's URL, known once the server listens: its endpoints answer 503 until then.
  let bot: StewardBotRuntime | undefined;
  if (runsBot) mountBot(server, () => bot, Boolean(config.bot.appId) || config.bot.allowUnauthenticated);
  try {
    await new Promise<void>((resolve, reject) => {
      // restify re-emits the http server's errors (EADDRINUSE, …) on itself.
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  publicUrl ||= url;
  if (runsWorker) worker.start();
  if (identity) {
    bot = createStewardBot({
      client: new StewardClient({
        baseUrl: config.bot.apiUrl ?? url,
        userAgent: `steward-bot/${VERSION}`,
        retry: { maxDelayMs: LONG_WAIT_MS },
      }),
      identity,
      storage: new BotStateRepository(store.db),
      log: logger.child({ component: 'bot' }),
      botFramework: config.bot,
      pollMs: config.bot.pollMs,
      webhook: overrides.botWebhook,
    });
    if (!config.bot.appId && !['127.0.0.1', 'localhost', '::1'].includes(config.host))
      logger.warn('the bot has no MicrosoftAppId: /api/messages accepts unauthenticated traffic');
    await bot.start(publicUrl);
  }
  logger.info(
    {
      url,
      store: config.database.kind === 'sqlite' ? config.database.file : redactUrl(config.database.url),
      auth: config.auth.mode,
      platform: platform.kind,
      role: config.role,
      workers: runsWorker ? config.workers.concurrency : 0,
      bot: bot !== undefined,
    },
    'Steward is listening',
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    store,
    close: () => {
      closing ??= (async () => {
        await bot?.stop();
        await worker.stop();
        await sender.close();
        await new Promise<void>((resolve) => {
          // Keep-alive connections become idle as their last responses finish: keep closing them.
          const sweep = setInterval(() => server.server.closeIdleConnections(), 50);
          server.server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.server.closeIdleConnections();
        });
        // The counts of refused calls still in memory go to the security trail before the store closes.
        await refusals.close();
        await platform.close?.();
        await store.close();
      })();
      return closing;
    },
  };
}

/** The platform this deployment governs: the embedded simulated tenant, or Microsoft Graph. */
async function buildPlatform(
  config: Config,
  store: Store,
  publicUrl: () => string,
  seeded: boolean,
): Promise<Platform> {
  if (config.platform.kind === 'graph') return createGraphPlatform(config.platform);
  const platform = createEmbeddedPlatform({
    directory: new DirectoryRepository(store.db),
    db: store.db,
    publicUrl,
    latencyMs: config.platform.latencyMs,
    faults: config.platform.faults,
  });
  if (seeded) await seedEmbeddedTeams(platform.teams);
  return platform;
}

/**
 * True when the peer is loopback and so is every hop a local proxy says it forwarded for: a proxy on
 * this machine passing on traffic from elsewhere does not make that traffic local.
 */
function fromThisMachine(req: restify.Request): boolean {
  const hops = forwardedHops(req.headers['x-forwarded-for']);
  return isLoopbackAddress(req.socket.remoteAddress ?? '') && hops.every(isLoopbackAddress);
}

/**
 * The bot's endpoints on the shared server; `current` is the bot once it runs. `authenticated`: the
 * Bot Framework authenticates activities (an app id is set), or the operator accepts that it does not.
 */
function mountBot(
  server: restify.Server,
  current: () => StewardBotRuntime | undefined,
  authenticated: boolean,
): void {
  const notReady = (res: restify.Response) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ error: { code: 'starting', message: 'The bot is starting.' } }));
  };
  server.post(MESSAGES_PATH, async (req: restify.Request, res: restify.Response) => {
    if (!authenticated && !fromThisMachine(req)) {
      // With no app id nothing proves who sent an activity: only this machine may send one.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 'unauthorized',
            message: 'Without MicrosoftAppId, activities are only accepted from this machine.',
          },
        }),
      );
      return;
    }
    const bot = current();
    await (bot ? bot.handleMessages(req, res) : notReady(res));
  });
  server.post(NOTIFICATIONS_PATH, async (req: restify.Request, res: restify.Response) => {
    const bot = current();
    await (bot ? bot.handleNotifications(req, res) : notReady(res));
  });
}

/**
 * Who the bot calls the API as. Embedded: short-lived tokens minted for people the directory knows
 * and for the bot's app (INTEGRATION_MANAGER). Entra: the person's token from the bot's OAuth
 * connection, and the bot's from Entra ID.
 */
function botIdentity(config: Config, platform: Platform): BotIdentity {
  const bot = config.bot;
  if (config.auth.mode === 'embedded') {
    const issuer = new EmbeddedTokenIssuer(config.auth.secret, config.tenantId);
    const ttlSeconds = 600;
    return new EmbeddedIdentity({
      forUser: async (aadObjectId) => {
        const person = await platform.directory.findUser(aadObjectId);
        if (!person || person.id.toLowerCase() !== aadObjectId.toLowerCase()) return undefined;
        return issuer.mint(
          { id: person.id, name: person.displayName, upn: person.userPrincipalName, roles: person.appRoles },
          ttlSeconds,
        );
      },
      forApp: () =>
        issuer.mint(
          {
            id: bot.appId ?? STEWARD_BOT_APP_ID,
            name: 'Steward bot',
            roles: ['INTEGRATION_MANAGER'],
            app: true,
          },
          ttlSeconds,
        ),
    });
  }
  const missing = [
    ['MicrosoftAppId', bot.appId],
    ['MicrosoftAppPassword', bot.appPassword],
    ['STEWARD_BOT_OAUTH_CONNECTION', bot.oauthConnection],
    ['STEWARD_BOT_API_SCOPE', bot.apiScope],
  ].find(([, value]) => !value);
  if (missing) throw new ConfigError(missing[0]!, 'is required for the bot when STEWARD_AUTH_MODE=entra');
  return new ProductionIdentity({
    oauthConnection: bot.oauthConnection!,
    appId: bot.appId!,
    appPassword: bot.appPassword!,
    appTenantId: bot.appTenantId,
    apiScope: bot.apiScope!,
  });
}

/** The embedded platform's read-only pages, where a created team's `webUrl` points. */
function mountViewer(server: restify.Server, platform: EmbeddedPlatform): void {
  const send = (res: restify.Response, status: number, html: string) => {
    res.writeHead(status, { ...VIEWER_HEADERS });
    res.end(html);
  };
  server.get('/platform/teams', async (_req: restify.Request, res: restify.Response) =>
    send(res, 200, await renderTeamListPage(platform.teams)),
  );
  server.get('/platform/teams/:teamId', async (req: restify.Request, res: restify.Response) => {
    const teamId = String(req.params.teamId);
    const page = await renderTeamPage(platform.teams, teamId);
    send(res, page ? 200 : 404, page ?? renderTeamNotFoundPage(teamId));
  });
}

/** `npm start`: reads the configuration, starts Steward, and stops it gracefully on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Steward cannot start: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const steward = await startSteward(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn('requests still running at the shutdown deadline; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    steward.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Steward failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
