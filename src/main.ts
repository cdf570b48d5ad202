// First: a Node.js Steward cannot run on stops here, before anything native loads (runtime.ts);
// then `node dist/main.js` restarts itself with V8's young-generation size before loading the rest.
import './runtime';
import { semiSpaceStart } from './heapStart';
import type { Logger } from 'pino';
import type restify from 'restify';
import type { BotIdentity, StewardBotRuntime } from './bot';
import { buildHttpServer, closeServer, listen } from './compose/http';
import { buildServices } from './compose/services';
import { buildFoundation } from './compose/store';
import { buildWorker, runsWorker, welcomeWarning } from './compose/workers';
import {
  checkBotSettings,
  type Config,
  ConfigError,
  loadConfig,
  loadDotEnv,
  redactUrl,
  runsBot,
} from './config';
import { SEMI_SPACE_MIB, setHeapGrowth } from './heap';
import { createLogger, STDOUT_LOG } from './logger';
import type { Platform } from './platform/port';
import type { HostResolver } from './services/webhooks/webhookSender';
import type { Store } from './store/database';
import { stopOnSignals } from './shutdown';

export { VERSION } from './version';

/** A running Steward: its address, its parts, and how to stop it. */
export interface Steward {
  readonly url: string;
  readonly server: restify.Server;
  readonly store: Store;
  /** Stops accepting connections, lets requests in flight finish, then closes the store. */
  close(): Promise<void>;
}

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
  /** Steward's clock (epoch ms) for services and the job worker; tests move it to make timers due. */
  clock?: () => number;
  /** The services' clock (tests that need a fixed minute, e.g. of refused calls). */
  now?: () => Date;
  /** Every MCP request answered by the SDK, `tools/call` included (tests holding the two paths equal). */
  mcpThroughSdk?: boolean;
}

/**
 * The composition root, in build steps (`src/compose/`): the store and the platform, the services,
 * the job worker, the HTTP server, the bot. The only place that knows every layer.
 */
export async function startSteward(
  config: Config,
  logger: Logger,
  overrides: StewardOverrides = {},
): Promise<Steward> {
  setHeapGrowth(config.heapGrowthPercent);
  // The public URL defaults to where the server listens, known only once it does.
  let publicUrl = config.publicUrl ?? '';
  let identity: BotIdentity | undefined;
  // The bot's half (botbuilder, the cards' templating, the understanding engine) is loaded only by a
  // process that runs it: an API or worker process starts without it.
  const botParts = runsBot(config) ? await import('./compose/bot') : undefined;
  const foundation = await buildFoundation(config, logger, {
    platform: overrides.platform,
    publicUrl: () => publicUrl,
    prepare: (platform) => {
      if (!botParts) return;
      checkBotSettings(config);
      identity = botParts.botIdentity(config, platform);
    },
  });
  const { store, platform } = foundation;
  // Jobs queued by this process start at once when it runs a worker; other workers poll.
  let wake = () => {};
  const services = buildServices(config, foundation, logger, {
    resolveHost: overrides.resolveHost,
    onQueued: () => wake(),
    clock: overrides.clock,
    now: overrides.now,
  });
  const worker = buildWorker(config, foundation, services, logger);
  wake = () => worker.wake();
  const server = buildHttpServer(config, foundation, services, logger, () => publicUrl, {
    mcpDirect: !overrides.mcpThroughSdk,
  });
  // The bot needs the API's URL, known once the server listens: its endpoints answer 503 until then.
  let bot: StewardBotRuntime | undefined;
  if (identity && botParts)
    botParts.mountBot(server, () => bot, Boolean(config.bot.appId) || config.bot.allowUnauthenticated);
  let url: string;
  try {
    // Secrets an earlier version stored plaintext are sealed before this process serves anything.
    const sealed = await services.hookSecrets.sealPlaintext();
    if (sealed > 0) logger.info({ hooks: sealed }, 'webhook secrets sealed');
    url = await listen(server, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  publicUrl ||= url;
  if (runsWorker(config)) {
    const warning = welcomeWarning(config);
    if (warning) logger.warn(warning);
    worker.start();
    // The daily lifecycle evaluation's next run: its id names its day, so every worker may queue it.
    await services.lifecycleEvaluations.ensureScheduled();
  }
  if (identity && botParts)
    bot = await botParts.startBot(
      config,
      { store, identity },
      logger,
      { apiUrl: url, publicUrl },
      overrides.botWebhook,
    );
  logger.info(
    {
      url,
      store: config.database.kind === 'sqlite' ? config.database.file : redactUrl(config.database.url),
      auth: config.auth.mode,
      platform: platform.kind,
      role: config.role,
      workers: runsWorker(config) ? config.workers.concurrency : 0,
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
        await services.sender.close();
        await closeServer(server);
        await platform.close?.();
        await store.close();
      })();
      return closing;
    },
  };
}

/** `node dist/main.js`: reads the configuration, starts Steward, and stops it on SIGTERM / SIGINT (see stopOnSignals). */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Steward cannot start: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  if (semiSpaceStart !== undefined && semiSpaceStart !== 'given')
    logger.warn(
      { semiSpaceMiB: SEMI_SPACE_MIB, reason: semiSpaceStart.unsupported },
      'the process was not restarted with its young-generation size: start node with --max-semi-space-size',
    );
  const steward = await startSteward(config, logger);
  stopOnSignals({
    close: () => steward.close(),
    logger,
    flushLogs: (ms) => STDOUT_LOG.flush(ms),
    timeoutMs: config.shutdownTimeoutMs,
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Steward failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
