import { Kysely, PostgresDialect } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createEmbeddedPlatform, seedEmbeddedTeams } from '../platform/embedded';
import type { Platform } from '../platform/port';
import { migrate, openStore, type Store } from '../store/database';
import type { Database } from '../store/schema';
import { DirectoryRepository } from '../store/directory/directory';
import { GraphBudgetRepository } from '../store/graphBudget/graphBudget';
import { seedDemoData } from '../store/seed';

/** The store, migrated (and seeded with the demo tenant when configured), and the platform it governs. */
export interface Foundation {
  store: Store;
  platform: Platform;
}

/**
 * Opens and migrates the store, seeds the demo data, and builds the platform (or takes the one
 * given). `prepare` runs last, with both at hand (start-up checks that need the platform); on any
 * failure the store is closed again.
 */
export async function buildFoundation(
  config: Config,
  logger: Logger,
  options: { platform?: Platform; publicUrl: () => string; prepare?: (platform: Platform) => void },
): Promise<Foundation> {
  const store = openStore(config.database, logger);
  try {
    const applied = await migrate(store.db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'store migrated');
    const seeded = config.seedDemoData && (await seedDemoData(store));
    if (seeded) logger.info('demo directory and catalog seeded');
    const platform =
      options.platform ?? (await buildPlatform(config, store, options.publicUrl, seeded, logger));
    options.prepare?.(platform);
    return { store, platform };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The platform this deployment governs: the embedded simulated tenant, or Microsoft Graph. */
async function buildPlatform(
  config: Config,
  store: Store,
  publicUrl: () => string,
  seeded: boolean,
  logger: Logger,
): Promise<Platform> {
  if (config.platform.kind === 'graph') {
    // Loaded only here: Graph's adapter and Azure's identity libraries are a sixth of the modules
    // of a start, which the embedded tenant never uses (test/compose/loading.test.ts).
    const { createGraphPlatform } = await import('../platform/graph');
    return createGraphPlatform(config.platform, {
      bot: config.bot,
      budgetStore: graphBudgetStore(store),
      logger,
    });
  }
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
 * The Graph budget's buckets in the deployment's database, shared by all its processes. On
 * PostgreSQL they go through the counter pool (commits that do not wait for the disk): a bucket
 * losing its last milliseconds in a crash costs nothing, and reservations are written on every
 * Teams call.
 */
function graphBudgetStore(store: Store): GraphBudgetRepository {
  if (!store.counterPool) return new GraphBudgetRepository(store.db);
  return new GraphBudgetRepository(
    new Kysely<Database>({ dialect: new PostgresDialect({ pool: store.counterPool }) }),
  );
}
