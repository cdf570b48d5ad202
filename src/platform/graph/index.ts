import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import type { Config } from '../../config';
import type { GraphBudgetStore } from '../../domain/graphBudget';
import { sleep as realSleep } from '../../lib/sleep';
import type { DelegatedAccess, Platform } from '../port';
import { GraphDelegation, NoDelegation } from './delegation';
import { GraphBudget } from './budget';
import { GraphClient, type RetryPolicy } from './client';
import type { Sleep } from './types';
import { GraphDirectory } from './directory';
import { GraphLifecycle } from './lifecycle';
import {
  DEFAULT_FILES_FOLDER_POLICY,
  type FilesFolderPolicy,
  GraphChannelFiles,
  scaledFilesFolderPolicy,
} from './files';
import { DEFAULT_POLLING, OperationPoller, type PollingPolicy } from './operations';
import { Binds } from './binds';
import { TeamProvisioner } from './provisioning';
import { GraphTeams } from './teams';
import { GraphWorkspace } from './teamTools';
import { graphTokenSource } from './identityToken';
import { GRAPH_SCOPE, MsalTokenSource, type TokenSource } from './token';
import { BOT_CONNECTOR_SCOPE, WelcomeMessenger } from './welcome';

export { GraphBudget, GraphBudgetDeferred } from './budget';
export { GraphClient, type RetryPolicy } from './client';
export type { Sleep } from './types';
export { GraphError } from './errors';
export { GraphDirectory } from './directory';
export type { PollingPolicy } from './operations';
export { GraphTeams } from './teams';
export { GRAPH_SCOPE, MsalTokenSource, type TokenSource } from './token';

/** Graph settings as `loadConfig` produces them for `STEWARD_PLATFORM=graph`. */
export type GraphPlatformConfig = Extract<Config['platform'], { kind: 'graph' }>;

/** Knobs for tests and special deployments; production needs none of them. */
export interface GraphPlatformOptions {
  /** HTTP connections for Graph and Entra ID (default: a keep-alive pool owned by the platform). */
  dispatcher?: Dispatcher;
  /** Bearer tokens (default: the configured credential against `authorityHost`). */
  tokens?: TokenSource;
  retry?: Partial<RetryPolicy>;
  polling?: Partial<PollingPolicy>;
  /** Waits for a channel's files folder (`files.ts`). */
  filesFolder?: Partial<FilesFolderPolicy>;
  /** Wait before retrying `POST /teams` on a group Teams cannot see yet (Graph advises 10 s). */
  replicationDelayMs?: number;
  /** Every wait (retries, polling) goes through this; tests record and shorten it. */
  sleep?: Sleep;
  random?: () => number;
  /** The bot's app registration, for delivering welcome messages as the bot (`config.bot`). */
  bot?: { appId?: string; appPassword?: string; appTenantId?: string };
  /** Bot Connector tokens (default: msal-node client credentials of `bot`). */
  botTokens?: TokenSource;
  /**
   * Where the tenant-wide Graph budget's buckets live (the deployment's database, shared by all its
   * processes); without one, calls are not paced (tests of single calls).
   */
  budgetStore?: GraphBudgetStore;
  /** Retries and calls are logged here (method, path, status; never headers or tokens). */
  logger?: Logger;
}

/** `policy` with its own waits multiplied by `scale` (the growth and the 404 count stay). */
function scaledPolling(policy: PollingPolicy, scale: number): PollingPolicy {
  const times = (ms: number) => Math.max(1, Math.round(ms * scale));
  return {
    ...policy,
    initialDelayMs: times(policy.initialDelayMs),
    cloneInitialDelayMs: times(policy.cloneInitialDelayMs),
    maxDelayMs: times(policy.maxDelayMs),
    timeoutMs: times(policy.timeoutMs),
    replicationDelayMs: times(policy.replicationDelayMs),
  };
}

/** The Graph platform plus the connection pool it owns. */
export interface GraphPlatform extends Platform {
  readonly kind: 'graph';
  readonly directory: GraphDirectory;
  readonly teams: GraphTeams;
  /** Closes the connection pool, if the platform made it. */
  close(): Promise<void>;
}

/**
 * Microsoft Graph as Steward's collaboration platform: app-only access with the app registration
 * of `config`.
 *
 * @example
 * const platform = createGraphPlatform(config.platform as GraphPlatformConfig, { logger });
 * const team = await platform.teams.getTeam(teamId);
 */
export function createGraphPlatform(
  config: GraphPlatformConfig,
  options: GraphPlatformOptions = {},
): GraphPlatform {
  const ownDispatcher = options.dispatcher
    ? undefined
    : new Agent({ connections: 32, keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });
  const dispatcher = options.dispatcher ?? (ownDispatcher as Agent);
  const sleep = options.sleep ?? realSleep;
  const tokens = options.tokens ?? graphTokenSource(config, dispatcher);
  const client = new GraphClient({
    baseUrl: config.baseUrl,
    tokens,
    dispatcher,
    retry: options.retry,
    sleep,
    random: options.random,
    logger: options.logger,
    budget: options.budgetStore && new GraphBudget(options.budgetStore, config.budget, sleep, options.logger),
  });
  // `STEWARD_GRAPH_TIME_SCALE`: Steward's own waits between looks at Graph's operations, scaled for a
  // simulator whose latencies are scaled down (1 against Microsoft Graph).
  const scale = config.timeScale ?? 1;
  const poller = new OperationPoller(
    client,
    scaledPolling({ ...DEFAULT_POLLING, ...options.polling }, scale),
    sleep,
  );
  const binds = new Binds(config.baseUrl);
  const provisioner = new TeamProvisioner(
    client,
    poller,
    binds,
    Math.round((options.replicationDelayMs ?? 10_000) * scale),
  );
  const bot = options.bot;
  const botTokens =
    options.botTokens ??
    (bot?.appId && bot.appPassword
      ? new MsalTokenSource(
          {
            // A multi-tenant bot gets its connector tokens from the botframework.com tenant.
            tenantId: bot.appTenantId ?? 'botframework.com',
            clientId: bot.appId,
            clientSecret: bot.appPassword,
            authorityHost: config.authorityHost,
          },
          dispatcher,
          config.botConnectorScope ?? BOT_CONNECTOR_SCOPE,
        )
      : undefined);
  const messenger = new WelcomeMessenger(
    client,
    binds,
    {
      teamsAppId: config.teamsAppId,
      botAppId: bot?.appId,
      botTokens,
      serviceUrl: config.botServiceUrl,
      tenantId: config.tenantId,
    },
    dispatcher,
  );
  return {
    kind: 'graph',
    directory: new GraphDirectory(client, config.rolesApp),
    teams: new GraphTeams(
      client,
      poller,
      provisioner,
      binds,
      messenger,
      new GraphChannelFiles(
        client,
        scaledFilesFolderPolicy({ ...DEFAULT_FILES_FOLDER_POLICY, ...options.filesFolder }, scale),
        sleep,
      ),
      new GraphWorkspace(client, binds, config.tenantId),
    ),
    lifecycle: new GraphLifecycle(client, dispatcher),
    delegation: delegationOf(config, dispatcher),
    close: async () => {
      await ownDispatcher?.close();
    },
  };
}

/** The on-behalf-of exchange of the API's app registration, or why there is none. */
function delegationOf(config: GraphPlatformConfig, dispatcher: Dispatcher): DelegatedAccess {
  const client = config.onBehalfOf ?? {
    unavailable:
      "Steward has no credential of the API's app registration to exchange people's sign-ins (STEWARD_API_CLIENT_ID and STEWARD_API_CLIENT_SECRET).",
  };
  if ('unavailable' in client) return new NoDelegation(client.unavailable);
  return new GraphDelegation(
    {
      ...client,
      tenantId: config.tenantId,
      authorityHost: config.authorityHost,
      graphOrigin: new URL(config.scope ?? GRAPH_SCOPE).origin,
    },
    dispatcher,
  );
}
