import type { Logger } from 'pino';
import type restify from 'restify';
import {
  type BotIdentity,
  createStewardBot,
  EmbeddedIdentity,
  MESSAGES_PATH,
  NOTIFICATIONS_PATH,
  ProductionIdentity,
  type StewardBotRuntime,
} from '../bot';
import { LONG_WAIT_MS } from '../bot/apiFailures';
import { StewardClient } from '../client';
import { type Config, entraBotSettings } from '../config';
import { managedIdentityToken } from '../platform/managedIdentity';
import { isLoopbackAddress } from '../lib/loopback';
import { forwardedHops } from '../lib/network';
import type { Platform } from '../platform/port';
import { EmbeddedTokenIssuer } from '../services/access/tokens';
import { BotStateRepository } from '../store/bot/botState';
import type { Store } from '../store/database';
import { STEWARD_BOT_APP_ID } from '../store/seed/directory';
import { VERSION } from '../version';

/**
 * Who the bot calls the API as. Embedded: short-lived tokens minted for people the directory knows
 * and for the bot's app (INTEGRATION_MANAGER). Entra: the person's token from the bot's OAuth
 * connection, and the bot's from Entra ID.
 */
export function botIdentity(config: Config, platform: Platform): BotIdentity {
  const bot = config.bot;
  if (config.auth.mode !== 'embedded') {
    const settings = entraBotSettings(bot);
    return new ProductionIdentity({
      ...settings,
      // A managed identity has no secret: Azure's identity endpoint gives its tokens.
      acquireAppToken: settings.managedIdentity
        ? managedIdentityToken(settings.appId, settings.apiScope)
        : undefined,
    });
  }
  const issuer = new EmbeddedTokenIssuer(config.auth.secret, config.tenantId);
  const ttlSeconds = 600;
  return new EmbeddedIdentity({
    forUser: async (aadObjectId) => {
      const person = await platform.directory.findUser(aadObjectId);
      if (!person || person.id.toLowerCase() !== aadObjectId.toLowerCase()) return undefined;
      return issuer.mint(
        { id: person.id, name: person.displayName, upn: person.userPrincipalName, roles: person.appRoles },
        ttlSeconds,
      );
    },
    forApp: () =>
      issuer.mint(
        {
          id: bot.appId ?? STEWARD_BOT_APP_ID,
          name: 'Steward bot',
          roles: ['INTEGRATION_MANAGER'],
          app: true,
        },
        ttlSeconds,
      ),
  });
}

/**
 * True when the peer is loopback and so is every hop a local proxy says it forwarded for: a proxy on
 * this machine passing on traffic from elsewhere does not make that traffic local.
 */
function fromThisMachine(req: restify.Request): boolean {
  const hops = forwardedHops(req.headers['x-forwarded-for']);
  return isLoopbackAddress(req.socket.remoteAddress) && hops.every((hop) => isLoopbackAddress(hop));
}

/**
 * The bot's endpoints on the shared server; `current` is the bot once it runs (503 until then).
 * `authenticated`: the Bot Framework authenticates activities (an app id is set), or the operator
 * accepts that it does not (`STEWARD_BOT_ALLOW_UNAUTHENTICATED`).
 */
export function mountBot(
  server: restify.Server,
  current: () => StewardBotRuntime | undefined,
  authenticated: boolean,
): void {
  const notReady = (res: restify.Response) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ error: { code: 'starting', message: 'The bot is starting.' } }));
  };
  server.post(MESSAGES_PATH, async (req: restify.Request, res: restify.Response) => {
    if (!authenticated && !fromThisMachine(req)) {
      // With no app id nothing proves who sent an activity: only this machine may send one.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            code: 'unauthorized',
            message: 'Without MicrosoftAppId, activities are only accepted from this machine.',
          },
        }),
      );
      return;
    }
    const bot = current();
    await (bot ? bot.handleMessages(req, res) : notReady(res));
  });
  server.post(NOTIFICATIONS_PATH, async (req: restify.Request, res: restify.Response) => {
    const bot = current();
    await (bot ? bot.handleNotifications(req, res) : notReady(res));
  });
}

/**
 * The hosts of the Bot Connector's service URLs Microsoft documents for Teams: the public cloud
 * (`smba.trafficmanager.net/{region}/`), GCC, GCC High and DoD (msteams-docs, "Send proactive
 * messages"; the Agents SDK's TeamsServiceEndpoints). 21Vianet's is read from its activities: list
 * it in STEWARD_BOT_SERVICE_URL_HOSTS.
 */
export const BOT_CONNECTOR_HOSTS: readonly string[] = [
  'smba.trafficmanager.net',
  'smba.infra.gcc.teams.microsoft.com',
  'smba.infra.gov.teams.microsoft.us',
  'smba.infra.dod.teams.microsoft.us',
];

/**
 * Which `serviceUrl` the bot answers to. With an app id (production): https on the default port,
 * to the documented Bot Connector hosts or `extraHosts`. Without (local mode): this machine
 * (loopback names and addresses) or `extraHosts`. Never user info in the URL.
 */
export function serviceUrlRule(
  production: boolean,
  extraHosts: readonly string[],
): (serviceUrl: string) => boolean {
  return (serviceUrl) => {
    let url: URL;
    try {
      url = new URL(serviceUrl);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (extraHosts.includes(host)) return url.protocol === 'https:' || url.protocol === 'http:';
    if (production) return url.protocol === 'https:' && url.port === '' && BOT_CONNECTOR_HOSTS.includes(host);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      (host === 'localhost' || isLoopbackAddress(host))
    );
  };
}

/** Builds and starts the bot, a client of the API at `apiUrl` (this process's own unless configured). */
export async function startBot(
  config: Config,
  { store, identity }: { store: Store; identity: BotIdentity },
  logger: Logger,
  urls: { apiUrl: string; publicUrl: string },
  webhook: boolean | undefined,
): Promise<StewardBotRuntime> {
  const bot = createStewardBot({
    client: new StewardClient({
      baseUrl: config.bot.apiUrl ?? urls.apiUrl,
      userAgent: `steward-bot/${VERSION}`,
      retry: { maxDelayMs: LONG_WAIT_MS },
    }),
    identity,
    storage: new BotStateRepository(store.db),
    log: logger.child({ component: 'bot' }),
    botFramework: config.bot,
    pollMs: config.bot.pollMs,
    webhook,
    acceptsServiceUrl: serviceUrlRule(config.bot.appId !== undefined, config.bot.serviceUrlHosts),
    bodyTimeoutMs: config.bodyTimeoutMs,
  });
  if (!config.bot.appId && !['127.0.0.1', 'localhost', '::1'].includes(config.host))
    logger.warn('the bot has no MicrosoftAppId: /api/messages accepts unauthenticated traffic');
  await bot.start(urls.publicUrl);
  return bot;
}
