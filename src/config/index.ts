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
import { listenAddress } from './listen';
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

/** Reads and validates the configuration from `env` (default: the process environment). */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const dataDir = path.resolve(cwd, setting(read, 'STEWARD_DATA_DIR'));
  const { host, port, publicUrl } = listenAddress(read);
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
