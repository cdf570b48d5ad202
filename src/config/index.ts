import path from 'node:path';
import { isLoopbackHost, plainAddress } from '../lib/network';
import {
  readAuth,
  readBot,
  readDatabase,
  readNamespace,
  readPlatform,
  readReports,
  readWebhooks,
} from './sections';
import { cloud } from './cloud';
import { listenAddress, listenPort } from './listen';
import { readGovernanceManagers, readRolesApp } from './governanceManagers';
import { readLifecycle } from './lifecycle';
import { DEFAULT_TENANT_ID } from './settings';
import { setting } from './setting';
import { ConfigError, type Read } from './values';
import { readDelegatedGrants, readOnBehalfOf } from './delegation';
import type { Config } from './types';

export { EMBEDDED_AUDIENCE, EMBEDDED_ISSUER } from './sections';
export { DEFAULT_TENANT_ID } from './settings';
export { loadDotEnv } from './dotenv';
export { isLoopback } from './listen';
export { ConfigError, redactUrl } from './values';
export { checkBotSettings, type EntraBotSettings, entraBotSettings, runsBot } from './botSettings';
export type { Config } from './types';

type Env = Readonly<Record<string, string | undefined>>;

/** The reader of `env` every loader uses: a blank value counts as unset. */
function readerOf(env: Env): Read {
  return (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
}

/**
 * The port Steward listens on, read as `loadConfig` reads it (`.env` loaded first by the caller),
 * for the local tools that talk to it without needing the rest of its settings (the playground).
 */
export function stewardPort(env: Env = process.env): number {
  return listenPort(readerOf(env));
}

/** Reads and validates the configuration from `env` (default: the process environment). */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const read = readerOf(env);
  const dataDir = path.resolve(cwd, setting(read, 'STEWARD_DATA_DIR'));
  const { host, port, publicUrl } = listenAddress(read);
  refuseDemoDefaults(read, host);
  const role = setting(read, 'STEWARD_ROLE');
  const tenantId = setting(read, 'STEWARD_TENANT_ID');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(tenantId)) {
    throw new ConfigError(
      'STEWARD_TENANT_ID',
      `expected a tenant id like ${DEFAULT_TENANT_ID}, got "${tenantId}"`,
    );
  }
  const cloudConfig = cloud(read);
  const graphOrEmbedded = readPlatform(read, cloudConfig);
  const authConfig = readAuth(read, dataDir);
  const platformConfig = withOnBehalfOf(
    withRolesApp(graphOrEmbedded, readRolesApp(read, authConfig)),
    read,
    authConfig,
  );
  const botConfig = readBot(read, authConfig, cloudConfig);
  const rateLimitFactor = setting(read, 'STEWARD_RATE_LIMIT_FACTOR');
  if (role === 'all' || role === 'bot') refuseUnauthenticatedExposure(botConfig, host);
  return {
    role,
    host,
    port,
    publicUrl,
    bodyTimeoutMs: setting(read, 'STEWARD_BODY_TIMEOUT_MS'),
    dataDir,
    database: readDatabase(read, dataDir, cwd),
    tenantId: tenantId.toLowerCase(),
    auth: authConfig,
    platform: platformConfig,
    delegatedGrants: readDelegatedGrants(read, authConfig, dataDir),
    provisioningMetadataNamespace: readNamespace(
      'STEWARD_PROVISIONING_METADATA_NAMESPACE',
      setting(read, 'STEWARD_PROVISIONING_METADATA_NAMESPACE'),
    ),
    reports: readReports(read, authConfig),
    workers: {
      concurrency: setting(read, 'STEWARD_WORKER_CONCURRENCY'),
      leaseMs: setting(read, 'STEWARD_JOB_LEASE_MS'),
      pollMs: setting(read, 'STEWARD_JOB_POLL_MS'),
    },
    lifecycle: readLifecycle(read),
    governanceManagers: readGovernanceManagers(read),
    rateLimitFactor,
    refusalsPerMinute: Math.max(
      1,
      Math.round(setting(read, 'STEWARD_REFUSALS_PER_MINUTE') * rateLimitFactor),
    ),
    trustedProxies: (setting(read, 'STEWARD_TRUSTED_PROXIES') ?? '')
      .split(',')
      .map((address) => plainAddress(address))
      .filter((address) => address !== ''),
    webhooks: readWebhooks(read, platformConfig.kind === 'embedded'),
    bot: botConfig,
    cloud: cloudConfig,
    seedDemoData: setting(read, 'STEWARD_SEED_DEMO_DATA'),
    logLevel: setting(read, 'STEWARD_LOG_LEVEL'),
    shutdownTimeoutMs: setting(read, 'STEWARD_SHUTDOWN_TIMEOUT_MS'),
    heapGrowthPercent: setting(read, 'STEWARD_HEAP_GROWTH_PERCENT'),
  };
}

/** Graph's settings with who exchanges people's sign-ins (the embedded platform needs nobody). */
function withOnBehalfOf(platform: Config['platform'], read: Read, auth: Config['auth']): Config['platform'] {
  return platform.kind === 'graph'
    ? { ...platform, onBehalfOf: readOnBehalfOf(read, auth, platform) }
    : platform;
}

/** Graph's settings with the app registration it reads role holders from (none: unchanged). */
function withRolesApp(platform: Config['platform'], rolesApp: string | undefined): Config['platform'] {
  return platform.kind === 'graph' && rolesApp !== undefined ? { ...platform, rolesApp } : platform;
}

/** The settings whose defaults are the demo's: the simulated tenant, its tokens, its data, its id. */
const DEMO_DEFAULTS = [
  'STEWARD_PLATFORM=embedded|graph',
  'STEWARD_AUTH_MODE=embedded|entra',
  'STEWARD_SEED_DEMO_DATA=true|false',
  'STEWARD_TENANT_ID=<your tenant id>',
] as const;

/**
 * The embedded default (the simulated tenant, embedded tokens and the demo's data, on loopback)
 * starts with no settings at all. Beyond it (listening past loopback, Entra ID tokens or Microsoft
 * Graph) a deployment takes none of the demo's defaults silently: each is chosen explicitly, or
 * Steward refuses to start, naming them, so the demo's data reaches such a store only when its
 * operator wrote STEWARD_SEED_DEMO_DATA=true.
 */
function refuseDemoDefaults(read: Read, host: string): void {
  const beyond = [
    ...(isLoopbackHost(host) ? [] : [`listens on ${host}, beyond loopback`]),
    ...(read('STEWARD_AUTH_MODE') === 'entra' ? ['takes Entra ID tokens'] : []),
    ...(read('STEWARD_PLATFORM') === 'graph' ? ['runs on Microsoft Graph'] : []),
  ];
  if (beyond.length === 0) return;
  const unset = DEMO_DEFAULTS.filter((choice) => read(choice.slice(0, choice.indexOf('='))) === undefined);
  if (unset.length > 0) {
    const names = unset.map((choice) => choice.slice(0, choice.indexOf('=')));
    throw new ConfigError(
      names.join(', '),
      `must be set: this Steward ${beyond.join(' and ')}, so it takes none of the demo's defaults ` +
        '(the simulated tenant, embedded tokens, the demo data and tenant id are the embedded ' +
        `default's, on loopback). Choose ${unset.join(', ')} (docs/guides/production.md)`,
    );
  }
}

/**
 * Without a Bot Framework app id, activities are not authenticated: anyone who reaches the port could
 * act in anyone's name. Such a bot only listens on loopback, unless its operator says otherwise.
 */
function refuseUnauthenticatedExposure(botConfig: Config['bot'], host: string): void {
  if (!botConfig.enabled || botConfig.appId || botConfig.allowUnauthenticated || isLoopbackHost(host)) return;
  throw new ConfigError(
    'MicrosoftAppId',
    `is required for the bot to listen on ${host} (not a loopback address): without it, activities ` +
      'are not authenticated. Set MicrosoftAppId (and MicrosoftAppPassword), listen on 127.0.0.1, or set ' +
      'STEWARD_BOT_ALLOW_UNAUTHENTICATED=true to accept unauthenticated activities from anywhere (unsafe)',
  );
}
