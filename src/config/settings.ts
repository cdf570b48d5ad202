import { PUBLISHED_GRAPH_LIMITS } from '../domain/graphBudget';

/**
 * Every setting Steward reads from its environment, described once: its section, type, default,
 * bounds and one line of help. The readers of `src/config` parse each value through `setting()`
 * (`./setting.ts`), which takes the default, the bounds and the choices from here; `.env.example`
 * and the configuration reference (`docs/reference/configuration.md`) are written from this table
 * (`npm run settings`), and `test/config/settings.test.ts` fails when any of them disagrees with it, or
 * when a reader reads a name this table does not describe.
 *
 * To add a setting: add its entry under its section (the order here is the order of the reference),
 * read it with `setting(read, 'NAME')` in its section's reader, and run `npm run settings`.
 */

/** The sections of the reference, in order, with their titles. */
export const SECTIONS = {
  server: 'Server',
  store: 'Store',
  auth: 'Tenant and tokens',
  limits: 'Rate limits and refused calls',
  platform: 'Collaboration platform',
  graphBudget: 'The Graph budget (with `graph`; defaults: Microsoft’s published limits)',
  governance: 'Lifecycle and governance managers',
  workers: 'Job workers',
  webhooks: 'Webhooks',
  bot: 'The bot',
  botFramework: 'Bot Framework endpoints, one by one (botbuilder’s own names, over the cloud’s)',
  reports: 'Reports',
  process: 'Logs and the process',
  cluster: 'Several processes on one machine (`npm run start:cluster`; its flags win over these)',
} as const;

export type SectionId = keyof typeof SECTIONS;

interface Described {
  section: SectionId;
  /** One line: what the setting does. */
  help: string;
  /** The default in words, when it is computed from other settings (the reader computes it). */
  defaultText?: string;
  /** A value shown in `.env.example` when there is no default to show. */
  example?: string;
}

/** A whole number from `min` to `max`; `atLeast` names a setting whose value raises `min`. */
export interface IntegerSetting extends Described {
  type: 'integer';
  min: number;
  max: number;
  atLeast?: string;
  default?: number;
}

/** A number above 0. */
export interface NumberSetting extends Described {
  type: 'number';
  default?: number;
}

/** A share: above 0, at most 1. */
export interface ShareSetting extends Described {
  type: 'share';
  default?: number;
}

export interface BooleanSetting extends Described {
  type: 'boolean';
  default?: boolean;
}

export interface ChoiceSetting extends Described {
  type: 'choice';
  choices: readonly string[];
  default?: string;
}

/** An absolute URL (its password never shown in an error). */
export interface UrlSetting extends Described {
  type: 'url';
  default?: string;
}

/**
 * Text, checked by its reader when `format` says more than "text". A `secret` is never written in
 * `.env.example` (an `example` aside), never echoed in an error, never logged.
 */
export interface TextSetting extends Described {
  type: 'text';
  format?: string;
  secret?: boolean;
  default?: string;
}

export type Setting =
  | IntegerSetting
  | NumberSetting
  | ShareSetting
  | BooleanSetting
  | ChoiceSetting
  | UrlSetting
  | TextSetting;

export const DEFAULT_TENANT_ID = '00000000-0000-0000-0000-000000000001';

const OBJECT_IDS = 'comma-separated user object ids';

export const SETTINGS = {
  // --- Server
  STEWARD_HOST: {
    section: 'server',
    type: 'text',
    format: 'an address',
    default: '127.0.0.1',
    help: 'address to listen on (`0.0.0.0` for all interfaces: then `STEWARD_PUBLIC_URL` is required)',
  },
  STEWARD_PORT: {
    section: 'server',
    type: 'integer',
    min: 0,
    max: 65535,
    defaultText: '`PORT`, else `3978`',
    example: '3978',
    help: 'port of the API and the bot',
  },
  PORT: {
    section: 'server',
    type: 'integer',
    min: 0,
    max: 65535,
    default: 3978,
    help: 'the port App Service and container platforms set; used when `STEWARD_PORT` is unset',
  },
  STEWARD_BODY_TIMEOUT_MS: {
    section: 'server',
    type: 'integer',
    min: 100,
    max: 300_000,
    default: 10_000,
    help: 'how long a request’s headers may take to arrive from its first byte, and then its body once it is read; later, the server answers 408 and closes the connection (a client that trickles its headers or its body holds nothing longer)',
  },
  STEWARD_PUBLIC_URL: {
    section: 'server',
    type: 'url',
    defaultText: 'where it listens (loopback only)',
    example: 'https://steward.contoso.com',
    help: 'base URL people, clients and Teams reach Steward at (links, `@odata.nextLink`, the bot’s webhook)',
  },
  STEWARD_CLOUD: {
    section: 'server',
    type: 'choice',
    choices: ['public', 'usgov', 'usgovdod', 'china'],
    default: 'public',
    help: 'the Microsoft cloud (`usgov`: GCC High): its Graph, sign-in and Bot Framework endpoints',
  },
  STEWARD_ROLE: {
    section: 'server',
    type: 'choice',
    choices: ['all', 'api', 'worker', 'bot'],
    default: 'all',
    help: 'what this process runs: everything, the API alone, job workers alone (with health and metrics), or the bot alone',
  },

  // --- Store
  STEWARD_DATA_DIR: {
    section: 'store',
    type: 'text',
    format: 'a directory',
    default: './data',
    help: 'where the SQLite file and the generated secret live',
  },
  STEWARD_DATABASE_URL: {
    section: 'store',
    type: 'text',
    format: '`sqlite:<file>` or `postgres://…`',
    secret: true,
    defaultText: 'SQLite `<data dir>/steward.db`',
    example: 'postgres://steward:secret@127.0.0.1:5432/steward',
    help: 'the store: a SQLite file or a PostgreSQL database (its password never logged)',
  },
  STEWARD_DATABASE_POOL_SIZE: {
    section: 'store',
    type: 'integer',
    min: 1,
    max: 200,
    default: 10,
    help: 'PostgreSQL connections per process',
  },
  STEWARD_SEED_DEMO_DATA: {
    section: 'store',
    type: 'boolean',
    default: true,
    help: 'seed the demo directory (people, groups, labels, apps) and template catalog into an empty store; a demo default, to set explicitly beyond the embedded default',
  },

  // --- Tenant and tokens
  STEWARD_TENANT_ID: {
    section: 'auth',
    type: 'text',
    format: 'a tenant id (GUID)',
    default: DEFAULT_TENANT_ID,
    help: 'the one tenant served; tokens of others are refused (401); a demo default, to set explicitly beyond the embedded default',
  },
  STEWARD_AUTH_MODE: {
    section: 'auth',
    type: 'choice',
    choices: ['embedded', 'entra'],
    default: 'embedded',
    help: '`embedded`: HS256 tokens from `npm run token`; `entra`: Microsoft Entra ID RS256 tokens; a demo default, to set explicitly beyond the embedded default',
  },
  STEWARD_AUTH_SECRET: {
    section: 'auth',
    type: 'text',
    format: '32 bytes or more',
    secret: true,
    defaultText: 'generated once into `<data dir>/auth-secret` (mode 0600)',
    help: 'embedded signing secret; in `entra` mode, the key report URLs are signed with (set it when several API processes serve them)',
  },
  STEWARD_DELEGATION_KEY: {
    section: 'auth',
    type: 'text',
    format: '32 bytes or more',
    secret: true,
    defaultText: 'the auth secret, else generated once into `<data dir>/seal-key` (mode 0600)',
    help: 'what the key sealing people’s delegated grants (sensitivity labels) and webhook secrets at rest is derived from; the same in every process, kept across restarts (a secret sealed under another key no longer opens)',
  },
  STEWARD_DELEGATION_MAX_MINUTES: {
    section: 'auth',
    type: 'integer',
    min: 1,
    // 90 days: an Entra ID refresh token's life ("Refresh tokens", Microsoft identity platform).
    max: 129600,
    default: 43200,
    help: 'the longest a person’s delegated grant is kept for a job (a sensitivity label waiting for its approval), at most 90 days, a refresh token’s life',
  },
  STEWARD_API_CLIENT_ID: {
    section: 'auth',
    type: 'text',
    defaultText: 'the Graph app’s, when it has a client secret',
    help: 'the API’s app registration, which exchanges people’s sign-ins for delegated Graph tokens (on-behalf-of; `entra` mode)',
  },
  STEWARD_API_CLIENT_SECRET: {
    section: 'auth',
    type: 'text',
    secret: true,
    help: 'its client secret (with `STEWARD_API_CLIENT_ID`)',
  },
  STEWARD_AUTH_JWKS_URI: {
    section: 'auth',
    type: 'url',
    example: 'https://login.microsoftonline.com/<tenant id>/discovery/v2.0/keys',
    help: 'Entra ID signing keys (required in `entra` mode)',
  },
  STEWARD_AUTH_ISSUER: {
    section: 'auth',
    type: 'text',
    example: 'https://login.microsoftonline.com/<tenant id>/v2.0',
    help: 'expected `iss` of tokens (required in `entra` mode)',
  },
  STEWARD_AUTH_AUDIENCE: {
    section: 'auth',
    type: 'text',
    example: '11111111-2222-3333-4444-555555555555',
    help: 'expected `aud` of tokens (required in `entra` mode: the API app’s client id, which v2.0 tokens carry)',
  },

  // --- Rate limits
  STEWARD_RATE_LIMIT_FACTOR: {
    section: 'limits',
    type: 'number',
    default: 1,
    help: 'multiplies the per-minute limits (tier 1 = 6, tier 2 = 20, tier 3 = 60) and refused calls; keep 1 in production',
  },
  STEWARD_REFUSALS_PER_MINUTE: {
    section: 'limits',
    type: 'integer',
    min: 1,
    max: 100_000,
    default: 30,
    help: 'refused calls (401, 403) one source may make a minute; past it, 429 until the minute is over',
  },
  STEWARD_TRUSTED_PROXIES: {
    section: 'limits',
    type: 'text',
    format: 'comma-separated addresses',
    example: '10.0.0.5',
    help: 'reverse proxies whose `X-Forwarded-For` names the client; from anyone else the header is ignored',
  },

  // --- Collaboration platform
  STEWARD_PLATFORM: {
    section: 'platform',
    type: 'choice',
    choices: ['embedded', 'graph'],
    default: 'embedded',
    help: '`embedded`: a simulated tenant in the store; `graph`: Microsoft Graph (app-only, client credentials); a demo default, to set explicitly beyond the embedded default',
  },
  STEWARD_GRAPH_TENANT_ID: {
    section: 'platform',
    type: 'text',
    help: 'Entra tenant of the Graph app (required with `graph`)',
  },
  STEWARD_GRAPH_CLIENT_ID: {
    section: 'platform',
    type: 'text',
    help: 'the app registration’s client id (required with `graph`)',
  },
  STEWARD_GRAPH_CLIENT_SECRET: {
    section: 'platform',
    type: 'text',
    secret: true,
    help: 'its client secret; or one of the next two (exactly one credential with `graph`)',
  },
  STEWARD_GRAPH_CERTIFICATE_PATH: {
    section: 'platform',
    type: 'text',
    format: 'a file',
    example: '/etc/steward/graph.pem',
    help: 'a PEM file with the app’s certificate and private key',
  },
  STEWARD_GRAPH_MANAGED_IDENTITY: {
    section: 'platform',
    type: 'boolean',
    default: false,
    help: '`true`: Azure’s managed identity whose client id is `STEWARD_GRAPH_CLIENT_ID`',
  },
  STEWARD_GRAPH_BASE_URL: {
    section: 'platform',
    type: 'url',
    defaultText: 'the cloud’s (`https://graph.microsoft.com/v1.0`)',
    help: 'the Graph endpoint',
  },
  STEWARD_GRAPH_AUTHORITY_HOST: {
    section: 'platform',
    type: 'url',
    defaultText: 'the cloud’s (`https://login.microsoftonline.com`)',
    help: 'where app tokens come from',
  },
  STEWARD_TEAMS_APP_ID: {
    section: 'platform',
    type: 'text',
    defaultText: '`MicrosoftAppId`',
    help: 'the `id` of Steward’s Teams app manifest (what `npm run manifest` writes, the bot’s id by default); Steward finds the app in the organisation’s catalog by it (its `externalId`) and installs it in each new team for the bot’s welcome; neither set, or the app not published there, the welcome step is skipped',
  },
  STEWARD_BOT_SERVICE_URL: {
    section: 'platform',
    type: 'url',
    defaultText: 'the cloud’s (public: `https://smba.trafficmanager.net/teams/`; none in `china`)',
    help: 'the Bot Connector the welcome message is sent through; GCC (moderate) tenants set `https://smba.infra.gcc.teams.microsoft.com/teams`',
  },
  STEWARD_GRAPH_ROLES_APP: {
    section: 'platform',
    type: 'text',
    defaultText: '`STEWARD_AUTH_AUDIENCE` in `entra` mode',
    help: 'the app registration whose app roles Steward’s tokens carry (client id or Application ID URI), where Graph reads who holds them',
  },
  STEWARD_GRAPH_TIME_SCALE: {
    section: 'platform',
    type: 'number',
    default: 1,
    help: 'multiplies Steward’s own waits on Graph (between looks at its operations): a simulator with scaled-down latencies only',
  },
  STEWARD_EMBEDDED_LATENCY_MS: {
    section: 'platform',
    type: 'integer',
    min: 0,
    max: 60_000,
    default: 0,
    help: 'a delay added to every embedded platform call (tests and benchmarks)',
  },
  STEWARD_EMBEDDED_FAULTS: {
    section: 'platform',
    type: 'text',
    format: 'call:status pairs (429, 500 or 503)',
    example: '3:429,7:503',
    help: 'embedded platform calls that fail, the Nth call answering the status (tests)',
  },

  // --- The Graph budget
  STEWARD_GRAPH_LIMIT_CREATE_TEAM_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.createTeamPerSecond,
    help: 'team creations a second, for the tenant',
  },
  STEWARD_GRAPH_LIMIT_CLONE_TEAM_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.cloneTeamPerSecond,
    help: 'team clones a second, for the tenant',
  },
  STEWARD_GRAPH_LIMIT_CHANNEL_TAB_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.channelOrTabPerSecond,
    help: 'channel and tab calls a second, for the tenant',
  },
  STEWARD_GRAPH_LIMIT_OTHER_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.otherPerSecond,
    help: 'other Teams calls a second, for the tenant',
  },
  STEWARD_GRAPH_LIMIT_PER_TEAM_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.perTeamPerSecond,
    help: 'calls a second on one team',
  },
  STEWARD_GRAPH_LIMIT_PER_CHANNEL_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.perChannelPerSecond,
    help: 'calls a second on one channel',
  },
  STEWARD_GRAPH_LIMIT_CHANNEL_CREATIONS_PER_TEAM_RPS: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.channelCreationsPerTeamPerSecond,
    help: 'channel creations a second on one team',
  },
  STEWARD_GRAPH_LIMIT_MEMBER_ADDS_PER_MINUTE: {
    section: 'graphBudget',
    type: 'number',
    default: PUBLISHED_GRAPH_LIMITS.memberAdditionsPerMinute,
    help: 'member additions a minute on one team',
  },
  STEWARD_GRAPH_LIMIT_SCALE: {
    section: 'graphBudget',
    type: 'number',
    default: 1,
    help: 'multiplies every limit above (a tenant given lower limits, or a scaled-down simulator)',
  },
  STEWARD_GRAPH_BUDGET_HEADROOM: {
    section: 'graphBudget',
    type: 'share',
    default: 0.9,
    help: "the share of each team's, channel's and drive's limit Steward spends",
  },
  STEWARD_GRAPH_BUDGET_CLASS_HEADROOM: {
    section: 'graphBudget',
    type: 'share',
    default: 0.98,
    help: 'the share of each request class limit (all teams together) Steward spends',
  },
  STEWARD_GRAPH_BUDGET_MAX_WAIT_MS: {
    section: 'graphBudget',
    type: 'integer',
    min: 0,
    max: 600_000,
    default: 10_000,
    help: 'the longest a call waits in the process for its turn; a later turn parks its job until then',
  },

  // --- Lifecycle and governance managers
  STEWARD_LIFECYCLE_EVALUATION_AT: {
    section: 'governance',
    type: 'text',
    format: '`HH:MM` (UTC) or `off`',
    default: '02:00',
    help: 'when the daily lifecycle evaluation runs; `off`: only on request',
  },
  STEWARD_LIFECYCLE_PAGE_SIZE: {
    section: 'governance',
    type: 'integer',
    min: 10,
    max: 999,
    default: 200,
    help: 'teams the lifecycle evaluator reads and decides at once',
  },
  STEWARD_GOVERNANCE_MANAGERS: {
    section: 'governance',
    type: 'text',
    format: OBJECT_IDS,
    help: 'the governance managers, told about teams nobody owns; when set, nobody’s roles are looked up',
  },
  STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS: {
    section: 'governance',
    type: 'integer',
    min: 0,
    max: 86_400,
    default: 300,
    help: 'how long the governance managers’ list is reused (0: looked up each time)',
  },

  // --- Job workers
  STEWARD_WORKER_CONCURRENCY: {
    section: 'workers',
    type: 'integer',
    min: 0,
    max: 64,
    default: 4,
    help: 'jobs one process runs at once (0: none here); a job parked on Microsoft Teams holds none',
  },
  STEWARD_JOB_LEASE_MS: {
    section: 'workers',
    type: 'integer',
    min: 1000,
    max: 3_600_000,
    default: 30_000,
    help: 'a job whose worker stops answering is taken over after this',
  },
  STEWARD_JOB_POLL_MS: {
    section: 'workers',
    type: 'integer',
    min: 10,
    max: 60_000,
    default: 500,
    help: 'how often idle workers look for jobs (up to 4 × less often while they find none)',
  },
  STEWARD_PROVISIONING_METADATA_NAMESPACE: {
    section: 'workers',
    type: 'text',
    format: '1–64 letters, digits, `.`, `_` or `-`',
    default: 'provisioning',
    help: 'the metadata namespace a provisioning request’s `metadata` is stored in, for each team created',
  },

  // --- Webhooks
  STEWARD_WEBHOOK_ALLOW_LOOPBACK: {
    section: 'webhooks',
    type: 'boolean',
    defaultText: '`true` with the embedded platform, else `false`',
    help: 'allow receivers on loopback (and plain http to `localhost`); other private addresses are always refused',
  },
  STEWARD_WEBHOOK_RETRIES: {
    section: 'webhooks',
    type: 'integer',
    min: 0,
    max: 20,
    default: 2,
    help: 'attempts after a failed first one',
  },
  STEWARD_WEBHOOK_RETRY_DELAY_MS: {
    section: 'webhooks',
    type: 'integer',
    min: 0,
    max: 3_600_000,
    default: 10_000,
    help: 'wait between attempts',
  },
  STEWARD_WEBHOOK_TIMEOUT_MS: {
    section: 'webhooks',
    type: 'integer',
    min: 100,
    max: 120_000,
    default: 10_000,
    help: 'deadline of one attempt (connect, headers and body)',
  },
  STEWARD_WEBHOOK_MAX_RESPONSE_BYTES: {
    section: 'webhooks',
    type: 'integer',
    min: 0,
    max: 10 * 1024 * 1024,
    default: 65_536,
    help: 'bytes of a receiver’s answer read at most',
  },
  STEWARD_WEBHOOK_FAILURE_THRESHOLD: {
    section: 'webhooks',
    type: 'integer',
    min: 1,
    max: 10_000,
    default: 5,
    help: 'consecutive failed deliveries that turn a hook inactive',
  },

  // --- The bot
  STEWARD_BOT_ENABLED: {
    section: 'bot',
    type: 'boolean',
    default: true,
    help: 'run the bot in the `all` and `bot` roles',
  },
  STEWARD_API_URL: {
    section: 'bot',
    type: 'url',
    defaultText: 'this process',
    example: 'https://steward-api.contoso.com',
    help: 'the API the bot calls (required with `STEWARD_ROLE=bot`)',
  },
  MicrosoftAppId: {
    section: 'bot',
    type: 'text',
    help: 'the bot’s Bot Framework app id; unset, `/api/messages` accepts unauthenticated activities from this machine only',
  },
  MicrosoftAppPassword: {
    section: 'bot',
    type: 'text',
    secret: true,
    help: 'its client secret (required with `MicrosoftAppId`, except with `UserAssignedMSI`)',
  },
  MicrosoftAppType: {
    section: 'bot',
    type: 'choice',
    choices: ['MultiTenant', 'SingleTenant', 'UserAssignedMSI'],
    default: 'SingleTenant',
    help: '`UserAssignedMSI`: a managed identity (no secret); `MultiTenant` only for bots registered before 31 July 2025',
  },
  MicrosoftAppTenantId: {
    section: 'bot',
    type: 'text',
    help: 'the bot’s tenant (required with `SingleTenant` and `UserAssignedMSI`)',
  },
  STEWARD_BOT_ALLOW_UNAUTHENTICATED: {
    section: 'bot',
    type: 'boolean',
    default: false,
    help: 'UNSAFE: without `MicrosoftAppId`, accept activities from anywhere (anyone can then act as anyone)',
  },
  STEWARD_BOT_SERVICE_URL_HOSTS: {
    section: 'bot',
    type: 'text',
    format: 'comma-separated host names',
    example: 'smba.example.cn',
    help: 'hosts an activity’s `serviceUrl` may name besides the Bot Connector’s documented ones (with an App Id) or loopback (without)',
  },
  STEWARD_BOT_OAUTH_CONNECTION: {
    section: 'bot',
    type: 'text',
    example: 'steward-api',
    help: 'the bot registration’s OAuth connection for Teams SSO (required in `entra` mode)',
  },
  STEWARD_BOT_API_SCOPE: {
    section: 'bot',
    type: 'text',
    defaultText: '`<STEWARD_AUTH_AUDIENCE>/.default` in `entra` mode',
    help: 'the scope the bot asks Entra ID for when it calls the API as itself',
  },
  STEWARD_BOT_POLL_MS: {
    section: 'bot',
    type: 'integer',
    min: 50,
    max: 60_000,
    default: 5000,
    help: 'first wait before the bot looks at a job it heard nothing about, and the least time between two polls',
  },
  STEWARD_BOT_POLL_MAX_MS: {
    section: 'bot',
    type: 'integer',
    min: 50,
    atLeast: 'STEWARD_BOT_POLL_MS',
    max: 600_000,
    default: 30_000,
    help: 'longest wait between looks (the wait doubles while nothing changes)',
  },

  // --- Bot Framework endpoints
  ChannelService: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the Bot Framework channel service',
  },
  OAuthUrl: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the Bot Framework token service (sign-in)',
  },
  ToChannelFromBotLoginUrl: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'where the bot’s own tokens come from',
  },
  ToChannelFromBotOAuthScope: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the audience of the bot’s tokens for the Bot Connector',
  },
  ToBotFromChannelTokenIssuer: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the issuer of the channel’s tokens',
  },
  ToBotFromChannelOpenIdMetadataUrl: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the channel’s signing keys',
  },
  ToBotFromEmulatorOpenIdMetadataUrl: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'the Emulator’s signing keys',
  },
  ValidateAuthority: {
    section: 'botFramework',
    type: 'text',
    defaultText: 'the cloud’s',
    help: 'whether botbuilder checks the sign-in authority (`true` or `false`)',
  },

  // --- Reports
  METABASE_SITE_URL: {
    section: 'reports',
    type: 'url',
    example: 'https://metabase.contoso.com',
    help: 'with `METABASE_SECRET_KEY`, report URLs are Metabase signed embedding URLs instead of Steward’s pages',
  },
  METABASE_SECRET_KEY: {
    section: 'reports',
    type: 'text',
    format: '32 characters or more',
    secret: true,
    help: 'Metabase’s static embedding key (Admin > Embedding > Static embedding)',
  },
  METABASE_RESOURCE_IDS: {
    section: 'reports',
    type: 'text',
    format: 'report-id:number pairs',
    defaultText: '1, 2, … in catalogue order',
    example: 'governance-overview:1,teams-created:2,orphaned-teams:6',
    help: 'the Metabase dashboard or question of each report',
  },

  // --- Logs and the process
  STEWARD_LOG_LEVEL: {
    section: 'process',
    type: 'choice',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    help: 'the least severe log line written',
  },
  STEWARD_SHUTDOWN_TIMEOUT_MS: {
    section: 'process',
    type: 'integer',
    min: 0,
    max: 600_000,
    default: 10_000,
    help: 'how long SIGTERM waits for work in flight: a hard deadline (a second signal exits at once)',
  },
  STEWARD_HEAP_GROWTH_PERCENT: {
    section: 'process',
    type: 'integer',
    min: 0,
    max: 400,
    default: 50,
    help: 'how far the heap may grow past what the last full collection kept (V8’s `--heap-growing-percent`; 0: V8’s own, up to 4 ×)',
  },

  // --- Several processes on one machine
  STEWARD_CLUSTER_API: {
    section: 'cluster',
    type: 'integer',
    min: 1,
    max: 32,
    default: 2,
    help: 'API processes behind the entry port (`STEWARD_PORT`); PostgreSQL is required',
  },
  STEWARD_CLUSTER_WORKERS: {
    section: 'cluster',
    type: 'integer',
    min: 0,
    max: 32,
    default: 2,
    help: 'job worker processes',
  },
  STEWARD_CLUSTER_BOTS: {
    section: 'cluster',
    type: 'integer',
    min: 0,
    max: 32,
    default: 0,
    help: 'bot processes',
  },
  STEWARD_CLUSTER_BACKEND_PORT: {
    section: 'cluster',
    type: 'integer',
    min: 1,
    max: 65535,
    defaultText: 'free ports',
    help: 'first loopback port of the processes behind the entry, one each',
  },
  STEWARD_CLUSTER_MAX_RESTARTS: {
    section: 'cluster',
    type: 'integer',
    min: 0,
    max: 1000,
    default: 5,
    help: 'restarts of one process before the cluster stops with exit code 1',
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
