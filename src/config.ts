import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPORTS } from './domain/reports/catalogue';

/**
 * Every setting of Steward, read from the environment once, validated, and typed. This is the only
 * module that reads `process.env`; a bad value stops start-up with a message naming the variable.
 */
export interface Config {
  /** Which parts this process runs: everything (embedded default), or the API, job workers or the bot alone. */
  role: 'all' | 'api' | 'worker' | 'bot';
  host: string;
  port: number;
  /** Base URL people and clients reach this deployment at (links, `@odata.nextLink`); default: where it listens. */
  publicUrl?: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };
  tenantId: string;
  auth:
    | { mode: 'embedded'; secret: string; issuer: 'steward-embedded'; audience: 'api://steward' }
    | { mode: 'entra'; jwksUri: string; issuer: string; audience: string };
  platform:
    | {
        kind: 'embedded';
        /** Delay added to every platform call (tests and benchmarks). */
        latencyMs: number;
        /** Fail chosen calls: the Nth platform call (1-based) answers with the status. */
        faults: ReadonlyArray<{ call: number; status: 429 | 500 | 503 }>;
      }
    | {
        kind: 'graph';
        tenantId: string;
        clientId: string;
        clientSecret: string;
        baseUrl: string;
        authorityHost: string;
      };
  /** The metadata namespace a provisioning request's `metadata` is stored in. */
  provisioningMetadataNamespace: string;
  reports: {
    /**
     * What the signing key of report page URLs is derived from (HKDF, never used raw): the auth
     * secret. In `entra` mode that is `STEWARD_AUTH_SECRET` when set, else a random secret of this
     * process (report URLs then work only on the process that issued them).
     */
    urlSecret: string;
    /** Metabase signed embedding instead of Steward's own pages (`METABASE_SITE_URL` and `METABASE_SECRET_KEY`). */
    metabase?: { siteUrl: string; secretKey: string; resourceIds: Record<string, number> };
  };
  /** Job workers in this process (0 = none; `npm run start:worker` runs them elsewhere). */
  workers: { concurrency: number; leaseMs: number; pollMs: number };
  rateLimitFactor: number;
  /** Webhook deliveries: where they may go, how they are retried, when a failing hook is turned off. */
  webhooks: {
    /** Allow loopback receivers (and plain http to localhost); default on with the embedded platform only. */
    allowLoopback: boolean;
    /** Attempts after the first failed one. */
    retries: number;
    retryDelayMs: number;
    /** Deadline of one attempt (connect, headers and body). */
    timeoutMs: number;
    /** Consecutive failed deliveries that turn a hook inactive. */
    failureThreshold: number;
    /** Bytes of a receiver's answer read at most. */
    maxResponseBytes: number;
  };
  /** The Teams bot (`/api/messages`), run by the `all` and `bot` roles. */
  bot: {
    enabled: boolean;
    /** The API the bot calls (`STEWARD_API_URL`); default: this process. */
    apiUrl?: string;
    /** Bot Framework identity (`MicrosoftAppId` …); with no app id, local unauthenticated traffic only. */
    appId?: string;
    appPassword?: string;
    appType: 'MultiTenant' | 'SingleTenant' | 'UserAssignedMSI';
    appTenantId?: string;
    /** The OAuth connection of the bot registration used for Teams SSO (production identity). */
    oauthConnection?: string;
    /** The scope the bot asks Entra ID for when calling the API as itself (entra mode). */
    apiScope?: string;
    /** Polling of a job when no webhook delivery arrives: first wait and longest wait, ms. */
    pollMs: { initial: number; max: number };
  };
  /** Seed the demo directory and templates into an empty embedded store. */
  seedDemoData: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  shutdownTimeoutMs: number;
}

/** Raised for a missing or malformed setting; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_TENANT_ID = '00000000-0000-0000-0000-0000000000001';
export const EMBEDDED_ISSUER = 'steward-embedded';
export const EMBEDDED_AUDIENCE = 'api://steward';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates the configuration from `env` (default: the process environment). */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const dataDir = path.resolve(cwd, read('STEWARD_DATA_DIR') ?? './data');
  const port = integer('STEWARD_PORT', read('STEWARD_PORT'), 3978, 0, 65535);
  const host = read('STEWARD_HOST') ?? '127.0.0.1';
  const role = oneOf('STEWARD_ROLE', read('STEWARD_ROLE'), ['all', 'api', 'worker', 'bot'] as const, 'all');
  const publicUrl = read('STEWARD_PUBLIC_URL');
  const tenantId = read('STEWARD_TENANT_ID') ?? DEFAULT_TENANT_ID;
  // Not a strict UUID: the embedded tenant id has 13 digits in its last group.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12,13}$/i.test(tenantId)) {
    throw new ConfigError(
      'STEWARD_TENANT_ID',
      `expected a tenant id like ${DEFAULT_TENANT_ID}, got "${tenantId}"`,
    );
  }
  const platformConfig = platform(read);
  const authConfig = auth(read, dataDir);
  return {
    role,
    host,
    port,
    publicUrl: publicUrl === undefined ? undefined : url('STEWARD_PUBLIC_URL', publicUrl).replace(/\/+$/, ''),
    dataDir,
    database: database(read('STEWARD_DATABASE_URL'), dataDir, read('STEWARD_DATABASE_POOL_SIZE'), cwd),
    tenantId: tenantId.toLowerCase(),
    auth: authConfig,
    platform: platformConfig,
    provisioningMetadataNamespace: namespace(
      'STEWARD_PROVISIONING_METADATA_NAMESPACE',
      read('STEWARD_PROVISIONING_METADATA_NAMESPACE') ?? 'provisioning',
    ),
    reports: reports(read, authConfig),
    workers: {
      concurrency: integer('STEWARD_WORKER_CONCURRENCY', read('STEWARD_WORKER_CONCURRENCY'), 4, 0, 64),
      leaseMs: integer('STEWARD_JOB_LEASE_MS', read('STEWARD_JOB_LEASE_MS'), 30_000, 1000, 3_600_000),
      pollMs: integer('STEWARD_JOB_POLL_MS', read('STEWARD_JOB_POLL_MS'), 500, 10, 60_000),
    },
    rateLimitFactor: positiveNumber('STEWARD_RATE_LIMIT_FACTOR', read('STEWARD_RATE_LIMIT_FACTOR'), 1),
    webhooks: webhooks(read, platformConfig.kind === 'embedded'),
    bot: bot(read, authConfig),
    seedDemoData: boolean('STEWARD_SEED_DEMO_DATA', read('STEWARD_SEED_DEMO_DATA'), true),
    logLevel: oneOf('STEWARD_LOG_LEVEL', read('STEWARD_LOG_LEVEL'), LOG_LEVELS, 'info'),
    shutdownTimeoutMs: integer(
      'STEWARD_SHUTDOWN_TIMEOUT_MS',
      read('STEWARD_SHUTDOWN_TIMEOUT_MS'),
      10_000,
      0,
      600_000,
    ),
  };
}

function database(
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

function webhooks(read: (name: string) => string | undefined, embedded: boolean): Config['webhooks'] {
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

function bot(read: (name: string) => string | undefined, auth: Config['auth']): Config['bot'] {
  const appId = read('MicrosoftAppId');
  const appPassword = read('MicrosoftAppPassword');
  const appType = oneOf(
    'MicrosoftAppType',
    read('MicrosoftAppType'),
    ['MultiTenant', 'SingleTenant', 'UserAssignedMSI'] as const,
    'MultiTenant',
  );
  if (appId && appType !== 'UserAssignedMSI' && !appPassword) {
    throw new ConfigError('MicrosoftAppPassword', 'is required with MicrosoftAppId');
  }
  const apiUrl = read('STEWARD_API_URL');
  const oauthConnection = read('STEWARD_BOT_OAUTH_CONNECTION');
  const initial = integer('STEWARD_BOT_POLL_MS', read('STEWARD_BOT_POLL_MS'), 1000, 50, 60_000);
  return {
    enabled: boolean('STEWARD_BOT_ENABLED', read('STEWARD_BOT_ENABLED'), true),
    apiUrl: apiUrl === undefined ? undefined : url('STEWARD_API_URL', apiUrl).replace(/\/+$/, ''),
    appId,
    appPassword,
    appType,
    appTenantId: read('MicrosoftAppTenantId'),
    oauthConnection,
    apiScope:
      read('STEWARD_BOT_API_SCOPE') ?? (auth.mode === 'entra' ? `${auth.audience}/.default` : undefined),
    pollMs: {
      initial,
      max: integer('STEWARD_BOT_POLL_MAX_MS', read('STEWARD_BOT_POLL_MAX_MS'), 30_000, initial, 600_000),
    },
  };
}

function namespace(name: string, value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new ConfigError(name, `expected 1–64 letters, digits, ".", "_" or "-", got "${value}"`);
  }
  return value;
}

function platform(read: (name: string) => string | undefined): Config['platform'] {
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
      clientSecret: need('STEWARD_GRAPH_CLIENT_SECRET'),
      baseUrl: url(
        'STEWARD_GRAPH_BASE_URL',
        read('STEWARD_GRAPH_BASE_URL') ?? 'https://graph.microsoft.com/v1.0',
      ).replace(/\/+$/, ''),
      authorityHost: url(
        'STEWARD_GRAPH_AUTHORITY_HOST',
        read('STEWARD_GRAPH_AUTHORITY_HOST') ?? 'https://login.microsoftonline.com',
      ).replace(/\/+$/, ''),
    };
  }
  return {
    kind,
    latencyMs: integer('STEWARD_EMBEDDED_LATENCY_MS', read('STEWARD_EMBEDDED_LATENCY_MS'), 0, 0, 60_000),
    faults: faults(read('STEWARD_EMBEDDED_FAULTS')),
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

function auth(read: (name: string) => string | undefined, dataDir: string): Config['auth'] {
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

function reports(read: (name: string) => string | undefined, auth: Config['auth']): Config['reports'] {
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

function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(name, `expected a positive number, got "${value}"`);
  return n;
}

function boolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(name, `expected true or false, got "${value}"`);
}

function oneOf<const T extends readonly string[]>(
  name: string,
  value: string | undefined,
  choices: T,
  fallback: T[number],
): T[number] {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T[number];
  throw new ConfigError(name, `expected one of ${choices.join(', ')}, got "${value}"`);
}

function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (!parsed.protocol) throw new Error('no scheme');
  } catch {
    throw new ConfigError(name, `expected a URL, got "${redactUrl(value)}"`);
  }
  return value;
}

/** Hides the password of a URL so that a config error never prints it. */
export function redactUrl(value: string): string {
  // Up to the last "@" before the path, so an unencoded "@" in a password is hidden too.
  return value.replace(/\/\/([^:/@]+):[^/]*@/, '//$1:***@');
}
