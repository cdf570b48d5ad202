import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Platform } from '../platform/port';
import { JobWorker } from '../services/jobs/worker';
import type { Store } from '../store/database';
import { VERSION } from '../version';
import type { Services } from './services';

/** Whether this process runs jobs: its role is `all` or `worker`, with at least one slot. */
export function runsWorker(config: Config): boolean {
  return (config.role === 'all' || config.role === 'worker') && config.workers.concurrency > 0;
}

/**
 * Why new teams will get no welcome from the bot, when this process's jobs cannot know Steward's
 * Teams app: on Graph the welcome installs the app found by its manifest id, and with neither
 * STEWARD_TEAMS_APP_ID nor MicrosoftAppId there is none to look for. Said once at start, so it is
 * not only in each job's log.
 */
export function welcomeWarning(config: Config): string | undefined {
  if (config.platform.kind !== 'graph' || !runsWorker(config) || !config.bot.enabled) return undefined;
  if (config.platform.teamsAppId) return undefined;
  return (
    "Steward's Teams app is not known: set STEWARD_TEAMS_APP_ID to its manifest id (or MicrosoftAppId, " +
    'its default); until then new teams get no welcome message from the bot'
  );
}

/** The job worker, with a handler for every registered job type (`jobTypes.ts`). */
export function buildWorker(
  config: Config,
  { store, platform }: { store: Store; platform: Platform },
  services: Services,
  logger: Logger,
): JobWorker {
  const {
    events,
    audit,
    metadata,
    hookStore,
    hookSecrets,
    sender,
    jobs,
    approvalTimers,
    lifecycleEvaluations,
    clock,
    labels,
    jobTypes,
    directory,
  } = services;
  const types = jobTypes.handlers({
    db: store.db,
    teams: platform.teams,
    events,
    audit,
    metadata,
    metadataNamespace: config.provisioningMetadataNamespace,
    hooks: hookStore,
    hookSecrets,
    sender,
    webhooks: { ...config.webhooks, userAgent: `Steward-Webhook/${VERSION}` },
    log: logger,
    approvalTimers,
    lifecycle: lifecycleEvaluations,
    labels,
    directory,
  });
  return new JobWorker(
    { db: store.db, jobs, events, audit, types },
    {
      owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      concurrency: config.workers.concurrency,
      leaseMs: config.workers.leaseMs,
      pollMs: config.workers.pollMs,
      log: logger,
      clock,
    },
  );
}
