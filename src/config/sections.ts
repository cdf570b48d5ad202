import { readGraphBudget } from './graphBudget';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NAMESPACE_PATTERN } from '../domain/metadata';
import { REPORTS } from '../domain/reports/catalogue';
import { botConnectorScope, type CloudEndpoints } from './cloud';
import { graphCredential } from './graphCredential';
import type { Config } from './index';
import { boolean, ConfigError, integer, oneOf, positiveNumber, type Read, redactUrl, url } from './values';

/** The settings of each part of Steward, read through `read` (never from the environment directly). */

export const DEFAULT_TENANT_ID = '00000000-0000-0000-0000-000000000001';
export const EMBEDDED_ISSUER = 'steward-embedded';
export const EMBEDDED_AUDIENCE = 'api://steward';

export function readDatabase(
  value: string | undefined,
  dataDir: string,
  poolSize: string | undefined,
  cwd: string,
): Config['database'] {
  if (!value) return { kind: 'sqlite', file: path.join(dataDir, 'steward.db') };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    url('STEWARD_DATABASE_URL', value);
    return {
      kind: 'postgres',
      url: value,
      poolSize: integer('STEWARD_DATABASE_POOL_SIZE', poolSize, 10, 1, 200),
    };
  }
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file)
      throw new ConfigError(
        'STEWARD_DATABASE_URL',
        'sqlite: needs a file path, e.g. sqlite:./data/steward.db',
      );
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(cwd, file) };
  }
  throw new ConfigError('STEWARD_DATABASE_URL', 'expected postgres://… or sqlite:<file>');
}

export function readWebhooks(read: Read, embedded: boolean): Config['webhooks'] {
  const int = (name: string, fallback: number, min: number, max: number) =>
    integer(name, read(name), fallback, min, max);
  return {
    allowLoopback: boolean(
      'STEWARD_WEBHOOK_ALLOW_LOOPBACK',
      read('STEWARD_WEBHOOK_ALLOW_LOOPBACK'),
      embedded,
    ),
    retries: int('STEWARD_WEBHOOK_RETRIES', 2, 0, 20),
    retryDelayMs: int('STEWARD_WEBHOOK_RETRY_DELAY_MS', 10_000, 0, 3_600_000),
    timeoutMs: int('STEWARD_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    failureThreshold: int('STEWARD_WEBHOOK_FAILURE_THRESHOLD', 5, 1, 10_000),
    maxResponseBytes: int('STEWARD_WEBHOOK_MAX_RESPONSE_BYTES', 65_536, 0, 10 * 1024 * 1024),
  };
}

export function readBot(read: Read, auth: Config['auth'], cloud: CloudEndpoints): Config['bot'] {
  const appId = read('MicrosoftAppId');
  const appPassword = read('MicrosoftAppPassword');
  const appType = oneOf(
    'MicrosoftAppType',
    read('MicrosoftAppType'),
    ['MultiTenant', 'SingleTenant', 'UserAssignedMSI'] as const,
    // Azure creates no new multi-tenant bots since 31 July 2025.
    'SingleTenant',
  );
  if (appId && appType !== 'UserAssignedMSI' && !appPassword) {
    throw new ConfigError('MicrosoftAppPassword', 'is required with MicrosoftAppId');
  }
  if (appId && appType !== 'MultiTenant' && !read('MicrosoftAppTenantId')) {
    throw new ConfigError('MicrosoftAppTenantId', `is required with MicrosoftAppType=${appType}`);
  }
  const apiUrl = read('STEWARD_API_URL');
  const oauthConnection = read('STEWARD_BOT_OAUTH_CONNECTION');
  const initial = integer('STEWARD_BOT_POLL_MS', read('STEWARD_BOT_POLL_MS'), 5000, 50, 60_000);
  return {
    enabled: boolean('STEWARD_BOT_ENABLED', read('STEWARD_BOT_ENABLED'), true),
    apiUrl: apiUrl === undefined ? undefined : url('STEWARD_API_URL', apiUrl).replace(/\/+$/, ''),
    appId,
    appPassword,
    appType,
    appTenantId: read('MicrosoftAppTenantId'),
    cloudSettings: cloud.botFramework,
    authorityHost: cloud.authorityHost,
    allowUnauthenticated: boolean(
      'STEWARD_BOT_ALLOW_UNAUTHENTICATED',
      read('STEWARD_BOT_ALLOW_UNAUTHENTICATED'),
      false,
    ),
    oauthConnection,
    apiScope:
      read('STEWARD_BOT_API_SCOPE') ?? (auth.mode === 'entra' ? `${auth.audience}/.default` : undefined),
    pollMs: {
      initial,
      max: integer('STEWARD_BOT_POLL_MAX_MS', read('STEWARD_BOT_POLL_MAX_MS'), 30_000, initial, 600_000),
    },
  };
}

export function readNamespace(name: string, value: string): string {
  if (!NAMESPACE_PATTERN.test(value)) {
    throw new ConfigError(name, `expected 1–64 letters, digits, ".", "_" or "-", got "${value}"`);
  }
  return value;
}

export function readPlatform(read: Read, cloud: CloudEndpoints): Config['platform'] {
  const kind = oneOf(
    'STEWARD_PLATFORM',
    read('STEWARD_PLATFORM'),
    ['embedded', 'graph'] as const,
    'embedded',
  );
  if (kind === 'graph') {
    const need = (name: string) => {
      const value = read(name);
      if (!value) throw new ConfigError(name, 'is required when STEWARD_PLATFORM=graph');
      return value;
    };
    return {
      kind,
      tenantId: need('STEWARD_GRAPH_TENANT_ID'),
      clientId: need('STEWARD_GRAPH_CLIENT_ID'),
      ...graphCredential(read),
      baseUrl: url('STEWARD_GRAPH_BASE_URL', read('STEWARD_GRAPH_BASE_URL') ?? cloud.graphBaseUrl).replace(
        /\/+$/,
        '',
      ),
      authorityHost: url(
        'STEWARD_GRAPH_AUTHORITY_HOST',
        read('STEWARD_GRAPH_AUTHORITY_HOST') ?? cloud.authorityHost,
      ).replace(/\/+$/, ''),
      teamsAppId: read('STEWARD_TEAMS_APP_ID'),
      ...botConnector(read, cloud),
      scope: `${new URL(cloud.graphBaseUrl).origin}/.default`,
      budget: readGraphBudget(read),
      ...(read('STEWARD_GRAPH_TIME_SCALE') === undefined
        ? {}
        : { timeScale: positiveNumber('STEWARD_GRAPH_TIME_SCALE', read('STEWARD_GRAPH_TIME_SCALE'), 1) }),
    };
  }
  return {
    kind,
    latencyMs: integer('STEWARD_EMBEDDED_LATENCY_MS', read('STEWARD_EMBEDDED_LATENCY_MS'), 0, 0, 60_000),
    faults: faults(read('STEWARD_EMBEDDED_FAULTS')),
  };
}

/**
 * Where the welcome reaches Teams' Bot Connector: STEWARD_BOT_SERVICE_URL, else the cloud's
 * documented one (none in China: the welcome then says it needs the setting). The token scope
 * follows the cloud's `ToChannelFromBotOAuthScope`.
 */
function botConnector(
  read: Read,
  cloud: CloudEndpoints,
): { botServiceUrl?: string; botConnectorScope: string } {
  const configured = read('STEWARD_BOT_SERVICE_URL');
  const serviceUrl = configured ?? cloud.botServiceUrl;
  return {
    ...(serviceUrl === undefined ? {} : { botServiceUrl: url('STEWARD_BOT_SERVICE_URL', serviceUrl) }),
    botConnectorScope: botConnectorScope(cloud),
  };
}

/** `3:429,7:503` → fail the 3rd platform call with 429 and the 7th with 503. */
function faults(value: string | undefined): Array<{ call: number; status: 429 | 500 | 503 }> {
  if (!value) return [];
  return value.split(',').map((part) => {
    const match = /^\s*(\d+)\s*:\s*(429|500|503)\s*$/.exec(part);
    if (!match)
      throw new ConfigError(
        'STEWARD_EMBEDDED_FAULTS',
        `expected call:status pairs like 3:429,7:503, got "${value}"`,
      );
    return { call: Number(match[1]), status: Number(match[2]) as 429 | 500 | 503 };
  });
}

export function readAuth(read: Read, dataDir: string): Config['auth'] {
  const mode = oneOf(
    'STEWARD_AUTH_MODE',
    read('STEWARD_AUTH_MODE'),
    ['embedded', 'entra'] as const,
    'embedded',
  );
  if (mode === 'entra') {
    const need = (name: string) => {
      const value = read(name);
      if (!value) throw new ConfigError(name, 'is required when STEWARD_AUTH_MODE=entra');
      return value;
    };
    return {
      mode,
      jwksUri: url('STEWARD_AUTH_JWKS_URI', need('STEWARD_AUTH_JWKS_URI')),
      issuer: need('STEWARD_AUTH_ISSUER'),
      audience: need('STEWARD_AUTH_AUDIENCE'),
    };
  }
  const configured = read('STEWARD_AUTH_SECRET');
  const secret = configured ?? embeddedSecret(dataDir);
  if (Buffer.byteLength(secret) < 32) {
    throw configured
      ? new ConfigError('STEWARD_AUTH_SECRET', 'must be at least 32 bytes long (HS256 key)')
      : new ConfigError(
          'STEWARD_DATA_DIR',
          `${path.join(dataDir, 'auth-secret')} holds a secret under 32 bytes; delete it to generate a new one`,
        );
  }
  return { mode, secret, issuer: EMBEDDED_ISSUER, audience: EMBEDDED_AUDIENCE };
}

export function readReports(read: Read, auth: Config['auth']): Config['reports'] {
  let urlSecret: string;
  if (auth.mode === 'embedded') urlSecret = auth.secret;
  else {
    urlSecret = read('STEWARD_AUTH_SECRET') ?? randomBytes(48).toString('base64url');
    if (Buffer.byteLength(urlSecret) < 32)
      throw new ConfigError('STEWARD_AUTH_SECRET', 'must be at least 32 bytes long');
  }
  const siteUrl = read('METABASE_SITE_URL');
  const secretKey = read('METABASE_SECRET_KEY');
  const resourceIds = metabaseResourceIds(read('METABASE_RESOURCE_IDS'));
  if (!siteUrl && !secretKey) return { urlSecret };
  if (!siteUrl) throw new ConfigError('METABASE_SITE_URL', 'is required when METABASE_SECRET_KEY is set');
  if (!secretKey) throw new ConfigError('METABASE_SECRET_KEY', 'is required when METABASE_SITE_URL is set');
  if (!/^https?:\/\//i.test(url('METABASE_SITE_URL', siteUrl))) {
    throw new ConfigError('METABASE_SITE_URL', `expected an http(s) URL, got "${redactUrl(siteUrl)}"`);
  }
  // The value is never echoed: it is a signing key.
  if (secretKey.length < 32) {
    throw new ConfigError(
      'METABASE_SECRET_KEY',
      'must be at least 32 characters (Metabase shows a 64-digit hex key under Admin → Embedding)',
    );
  }
  return { urlSecret, metabase: { siteUrl: siteUrl.replace(/\/+$/, ''), secretKey, resourceIds } };
}

/** `teams-created:12,orphaned-teams:7` → Metabase resource ids by report id. */
function metabaseResourceIds(value: string | undefined): Record<string, number> {
  const ids: Record<string, number> = {};
  if (!value) return ids;
  const known = new Set(REPORTS.map((r) => r.id));
  for (const part of value.split(',')) {
    const match = /^\s*([a-z0-9-]+)\s*:\s*(\d{1,9})\s*$/.exec(part);
    if (!match || Number(match[2]) < 1) {
      throw new ConfigError(
        'METABASE_RESOURCE_IDS',
        `expected report-id:number pairs like teams-created:12,orphaned-teams:7, got "${value}"`,
      );
    }
    if (!known.has(match[1]!)) {
      throw new ConfigError(
        'METABASE_RESOURCE_IDS',
        `"${match[1]}" is not a report; reports are ${[...known].join(', ')}`,
      );
    }
    ids[match[1]!] = Number(match[2]);
  }
  return ids;
}

/** The embedded signing secret: generated once into the data dir, readable by its owner only. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs so both sign with the same key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}
