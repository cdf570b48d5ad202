import type { GraphBudgetSettings } from '../domain/graphBudget';
import type { CloudEndpoints } from './cloud';
import type { GovernanceManagerSettings } from './governanceManagers';
import type { LifecycleSettings } from './lifecycle';
import type { SettingValue } from './setting';

/*
 * The shape of Steward's settings, in a module of its own: the readers that fill its parts
 * (`sections.ts`, `delegation.ts`, `botSettings.ts`) need it, and `index.ts`, which calls them,
 * puts it together; none of them imports `index.ts`.
 */

/**
 * Every setting of Steward, read from the environment once, validated, and typed. This is the only
 * module that reads `process.env`; a bad value stops start-up with a message naming the variable.
 * Each setting is described once, in `SETTINGS` (`./settings.ts`), and parsed from that description.
 */
export interface Config {
  /** Which parts this process runs: everything (embedded default), or the API, job workers or the bot alone. */
  role: SettingValue<'STEWARD_ROLE'>;
  host: string;
  port: number;
  /** Base URL people and clients reach this deployment at (links, `@odata.nextLink`); default: where it listens. */
  publicUrl?: string;
  /** How long a request body may take to arrive (`STEWARD_BODY_TIMEOUT_MS`); later, 408. */
  bodyTimeoutMs: number;
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
        /** One of three credentials: a client secret, a certificate (PEM with its key), or the managed identity. */
        clientSecret?: string;
        certificatePath?: string;
        managedIdentity?: boolean;
        baseUrl: string;
        authorityHost: string;
        /**
         * The `id` of Steward's Teams app manifest (`STEWARD_TEAMS_APP_ID`, else `MicrosoftAppId`):
         * found in the organisation's catalog by it and installed in new teams so its bot can welcome them.
         */
        teamsAppId?: string;
        /**
         * The Bot Connector the welcome message is sent through (`STEWARD_BOT_SERVICE_URL`, else the
         * cloud's); absent where Microsoft documents none (China) and none is set.
         */
        botServiceUrl?: string;
        /** The `.default` scope of the bot's Bot Connector tokens, in the cloud (public when absent). */
        botConnectorScope?: string;
        /** The `.default` scope of the cloud's Graph (national clouds have their own). */
        scope?: string;
        /** The tenant-wide Graph budget: Microsoft's published limits unless set (`readGraphBudget`). */
        budget: GraphBudgetSettings;
        /**
         * `STEWARD_GRAPH_TIME_SCALE`: multiplies Steward's own waits on Graph (between looks at its
         * operations); 1 against Microsoft Graph, below 1 for a simulator with scaled latencies.
         */
        timeScale?: number;
        /**
         * The app registration whose app roles Steward's tokens carry (client id or Application ID
         * URI), where Graph reads who holds them (`readRolesApp`); none: nobody is listed from Graph.
         */
        rolesApp?: string;
        /**
         * Who exchanges people's sign-ins for delegated Graph tokens by the on-behalf-of flow (the
         * API's app registration, `readOnBehalfOf`), or why nobody can (absent: nobody can);
         * sensitivity labels need it.
         */
        onBehalfOf?: OnBehalfOfSettings;
      };
  /** How delegated grants (a person's authority for a sensitivity label) are sealed and how long they live. */
  delegatedGrants: DelegatedGrantSettings;
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
  /** The lifecycle evaluator's schedule and page size. */
  lifecycle: LifecycleSettings;
  /** Who is told about teams nobody owns: a configured list, or who holds the governance roles. */
  governanceManagers: GovernanceManagerSettings;
  rateLimitFactor: number;
  /** Refused calls (401, 403) a source may make a minute before 429 (`STEWARD_REFUSALS_PER_MINUTE` × the factor). */
  refusalsPerMinute: number;
  /** Peers trusted to name the client in `X-Forwarded-For` (`STEWARD_TRUSTED_PROXIES`, comma-separated). */
  trustedProxies: readonly string[];
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
    /**
     * `STEWARD_BOT_ALLOW_UNAUTHENTICATED=true` (unsafe): without an app id, accept activities from any
     * peer and listen on any address. Anyone who reaches the port can then act as anyone.
     */
    allowUnauthenticated: boolean;
    /**
     * `STEWARD_BOT_SERVICE_URL_HOSTS`: hosts an activity's `serviceUrl` may name besides the Bot
     * Connector's documented ones (with an app id) or loopback (without), comma-separated.
     */
    serviceUrlHosts: string[];
    appPassword?: string;
    appType: 'MultiTenant' | 'SingleTenant' | 'UserAssignedMSI';
    /** The cloud's Bot Framework endpoints (and any set one by one) for ConfigurationBotFrameworkAuthentication. */
    cloudSettings: Record<string, string>;
    /** Where the bot's own Entra ID tokens come from (its cloud's sign-in endpoint). */
    authorityHost: string;
    appTenantId?: string;
    /** The OAuth connection of the bot registration used for Teams SSO (production identity). */
    oauthConnection?: string;
    /** The scope the bot asks Entra ID for when calling the API as itself (entra mode). */
    apiScope?: string;
    /** Polling of a job when no webhook delivery arrives: first wait and longest wait, ms. */
    pollMs: { initial: number; max: number };
  };
  /** The Microsoft cloud (`STEWARD_CLOUD`) and its endpoints. */
  cloud: CloudEndpoints;
  /** Seed the demo directory and templates into an empty embedded store. */
  seedDemoData: boolean;
  logLevel: SettingValue<'STEWARD_LOG_LEVEL'>;
  shutdownTimeoutMs: number;
  /**
   * How far, in percent, the JavaScript heap may grow past what the last full collection kept
   * before the next one (V8's `--heap-growing-percent`); 0 leaves V8's own choice, up to 4 ×.
   */
  heapGrowthPercent: number;
}

/** How delegated grants (a person's authority, for sensitivity labels) are kept: sealed, and how long. */
export interface DelegatedGrantSettings {
  /**
   * What the sealing key of delegated grants and webhook secrets is derived from (HKDF, never used
   * raw, one key per purpose): `STEWARD_DELEGATION_KEY`, else the auth secret (`STEWARD_AUTH_SECRET`,
   * or the embedded one), else a secret generated once into the data dir (`seal-key`).
   */
  sealSecret: string;
  /** The longest a grant is kept, renewed with its refresh token (`STEWARD_DELEGATION_MAX_MINUTES`). */
  maxSeconds: number;
}

/** Who exchanges people's sign-ins on Graph (the API's app registration), or why nobody can. */
export type OnBehalfOfSettings = { clientId: string; clientSecret: string } | { unavailable: string };
