import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type restify from 'restify';
import { ApiMetrics } from './api/metrics';
import { createAuthenticator } from './api/middleware/authenticate';
import { catalogRoutes } from './api/routes/catalog';
import { directoryRoutes } from './api/routes/directory';
import { createApiServer } from './api/server';
import { type Config, ConfigError, loadConfig, redactUrl } from './config';
import { createLogger } from './logger';
import { createEmbeddedPlatform } from './platform/embedded';
import { CatalogService } from './services/catalog';
import { DirectoryService } from './services/directory';
import { RateLimitService } from './services/rateLimits';
import { migrate, openStore, type Store } from './store/database';
import { DirectoryRepository } from './store/directory';
import { seedDemoData } from './store/seed';
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
 * The composition root: opens and migrates the store, seeds the demo tenant, builds the services
 * and starts the HTTP server. The only place that knows every layer.
 */
export async function startSteward(config: Config, logger: Logger): Promise<Steward> {
  const store = openStore(config.database);
  try {
    const applied = await migrate(store.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'store migrated');
    if (config.seedDemoData && (await seedDemoData(store))) logger.info('demo directory and catalog seeded');
  } catch (error) {
    await store.close();
    throw error;
  }
  const platform = createEmbeddedPlatform({ directory: new DirectoryRepository(store.db) });
  const directory = new DirectoryService(platform.directory);
  const catalog = new CatalogService(new TemplateRepository(store.db), directory, logger);
  // The public URL defaults to where the server listens, known only once it does.
  let publicUrl = config.publicUrl ?? '';
  const server = createApiServer({
    routes: [...catalogRoutes(catalog), ...directoryRoutes(directory)],
    authenticator: createAuthenticator(config.auth, config.tenantId),
    rateLimits: new RateLimitService({ factor: config.rateLimitFactor, pgPool: store.pgPool }),
    metrics: new ApiMetrics(),
    logger,
    tenantId: config.tenantId,
    publicUrl: () => publicUrl,
    version: VERSION,
    ready: () => store.ping(),
  });
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
  logger.info(
    {
      url,
      store: config.database.kind === 'sqlite' ? config.database.file : redactUrl(config.database.url),
      auth: config.auth.mode,
      platform: platform.kind,
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
        await new Promise<void>((resolve) => {
          // Keep-alive connections become idle as their last responses finish: keep closing them.
          const sweep = setInterval(() => server.server.closeIdleConnections(), 50);
          server.server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.server.closeIdleConnections();
        });
        await store.close();
      })();
      return closing;
    },
  };
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
