import { readGraphBudget } from './graphBudget';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { NAMESPACE_PATTERN } from '../domain/metadata';
import { REPORTS } from '../domain/reports/catalogue';
import { botConnectorScope, type CloudEndpoints } from './cloud';
import { dataDirSecret } from './dataDirSecret';
import { graphCredential } from './graphCredential';
import type { Config } from './types';
import { setting } from './setting';
import { ConfigError, type Read, redactUrl, url } from './values';

/** The settings of each part of Steward, read through `read` (never from the environment directly). */

export const EMBEDDED_ISSUER = 'steward-embedded';
export const EMBEDDED_AUDIENCE = 'api://steward';

export function readDatabase(read: Read, dataDir: string, cwd: string): Config['database'] {
  const value = setting(read, 'STEWARD_DATABASE_URL');
  if (!value) return { kind: 'sqlite', file: path.join(dataDir, 'steward.db') };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    url('STEWARD_DATABASE_URL', value);
    return {
      kind: 'postgres',
      url: value,
      poolSize: setting(read, 'STEWARD_DATABASE_POOL_SIZE'),
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
  return {
    allowLoopback: setting(read, 'STEWARD_WEBHOOK_ALLOW_LOOPBACK') ?? embedded,
    retries: setting(read, 'STEWARD_WEBHOOK_RETRIES'),
    retryDelayMs: setting(read, 'STEWARD_WEBHOOK_RETRY_DELAY_MS'),
    timeoutMs: setting(read, 'STEWARD_WEBHOOK_TIMEOUT_MS'),
    failureThreshold: setting(read, 'STEWARD_WEBHOOK_FAILURE_THRESHOLD'),
    maxResponseBytes: setting(read, 'STEWARD_WEBHOOK_MAX_RESPONSE_BYTES'),
  };
}

export function readBot(read: Read, auth: Config['auth'], cloud: CloudEndpoints): Config['bot'] {
  const appId = setting(read, 'MicrosoftAppId');
  const appPassword = setting(read, 'MicrosoftAppPassword');
  // Azure creates no new multi-tenant bots since 31 July 2025: SingleTenant by default.
  const appType = setting(read, 'MicrosoftAppType');
  const appTenantId = setting(read, 'MicrosoftAppTenantId');
  if (appId && appType !== 'UserAssignedMSI' && !appPassword) {
    throw new ConfigError('MicrosoftAppPassword', 'is required with MicrosoftAppId');
  }
  if (appId && appType !== 'MultiTenant' && !appTenantId) {
    throw new ConfigError('MicrosoftAppTenantId', `is required with MicrosoftAppType=${appType}`);
  }
  const apiUrl = setting(read, 'STEWARD_API_URL');
  const oauthConnection = setting(read, 'STEWARD_BOT_OAUTH_CONNECTION');
  return {
    enabled: setting(read, 'STEWARD_BOT_ENABLED'),
    apiUrl: apiUrl?.replace(/\/+$/, ''),
    appId,
    appPassword,
    appType,
    appTenantId,
    cloudSettings: cloud.botFramework,
    authorityHost: cloud.authorityHost,
    allowUnauthenticated: setting(read, 'STEWARD_BOT_ALLOW_UNAUTHENTICATED'),
    serviceUrlHosts: (setting(read, 'STEWARD_BOT_SERVICE_URL_HOSTS') ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    oauthConnection,
    apiScope:
      setting(read, 'STEWARD_BOT_API_SCOPE') ??
      (auth.mode === 'entra' ? `${auth.audience}/.default` : undefined),
    pollMs: {
      initial: setting(read, 'STEWARD_BOT_POLL_MS'),
      // At least STEWARD_BOT_POLL_MS (the description's `atLeast`).
      max: setting(read, 'STEWARD_BOT_POLL_MAX_MS'),
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
  const kind = setting(read, 'STEWARD_PLATFORM');
  if (kind === 'graph') {
    const need = (name: 'STEWARD_GRAPH_TENANT_ID' | 'STEWARD_GRAPH_CLIENT_ID') => {
      const value = setting(read, name);
      if (!value) throw new ConfigError(name, 'is required when STEWARD_PLATFORM=graph');
      return value;
    };
    return {
      kind,
      tenantId: need('STEWARD_GRAPH_TENANT_ID'),
      clientId: need('STEWARD_GRAPH_CLIENT_ID'),
      ...graphCredential(read),
      baseUrl: (setting(read, 'STEWARD_GRAPH_BASE_URL') ?? cloud.graphBaseUrl).replace(/\/+$/, ''),
      authorityHost: (setting(read, 'STEWARD_GRAPH_AUTHORITY_HOST') ?? cloud.authorityHost).replace(
        /\/+$/,
        '',
      ),
      // The manifest's id, whose default in `npm run manifest` is the bot's app id: one meaning in both.
      teamsAppId: setting(read, 'STEWARD_TEAMS_APP_ID') ?? setting(read, 'MicrosoftAppId'),
      ...botConnector(read, cloud),
      scope: `${new URL(cloud.graphBaseUrl).origin}/.default`,
      budget: readGraphBudget(read),
      timeScale: setting(read, 'STEWARD_GRAPH_TIME_SCALE'),
    };
  }
  return {
    kind,
    latencyMs: setting(read, 'STEWARD_EMBEDDED_LATENCY_MS'),
    faults: faults(setting(read, 'STEWARD_EMBEDDED_FAULTS')),
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
  const serviceUrl = setting(read, 'STEWARD_BOT_SERVICE_URL') ?? cloud.botServiceUrl;
  return {
    ...(serviceUrl === undefined ? {} : { botServiceUrl: serviceUrl }),
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
  const mode = setting(read, 'STEWARD_AUTH_MODE');
  if (mode === 'entra') {
    const need = (name: string, value: string | undefined) => {
      if (!value) throw new ConfigError(name, 'is required when STEWARD_AUTH_MODE=entra');
      return value;
    };
    return {
      mode,
      jwksUri: need('STEWARD_AUTH_JWKS_URI', setting(read, 'STEWARD_AUTH_JWKS_URI')),
      issuer: need('STEWARD_AUTH_ISSUER', setting(read, 'STEWARD_AUTH_ISSUER')),
      audience: need('STEWARD_AUTH_AUDIENCE', setting(read, 'STEWARD_AUTH_AUDIENCE')),
    };
  }
  const configured = setting(read, 'STEWARD_AUTH_SECRET');
  const secret = configured ?? dataDirSecret(dataDir, 'auth-secret');
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
    urlSecret = setting(read, 'STEWARD_AUTH_SECRET') ?? randomBytes(48).toString('base64url');
    if (Buffer.byteLength(urlSecret) < 32)
      throw new ConfigError('STEWARD_AUTH_SECRET', 'must be at least 32 bytes long');
  }
  const siteUrl = setting(read, 'METABASE_SITE_URL');
  const secretKey = setting(read, 'METABASE_SECRET_KEY');
  const resourceIds = metabaseResourceIds(setting(read, 'METABASE_RESOURCE_IDS'));
  if (!siteUrl && !secretKey) return { urlSecret };
  if (!siteUrl) throw new ConfigError('METABASE_SITE_URL', 'is required when METABASE_SECRET_KEY is set');
  if (!secretKey) throw new ConfigError('METABASE_SECRET_KEY', 'is required when METABASE_SITE_URL is set');
  if (!/^https?:\/\//i.test(siteUrl)) {
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
