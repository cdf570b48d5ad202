import type { Config } from './types';
import { ConfigError } from './values';

/** Whether this process runs the bot: it is enabled, and the role is `all` or `bot`. */
export function runsBot(config: Config): boolean {
  return config.bot.enabled && (config.role === 'all' || config.role === 'bot');
}

/**
 * Checks the settings the bot needs at start-up in this process's role (a configuration may leave
 * them out when the bot does not run here): a bot process alone serves no API, so it must be told
 * where one is.
 */
export function checkBotSettings(config: Config): void {
  if (config.role === 'bot' && !config.bot.apiUrl)
    throw new ConfigError('STEWARD_API_URL', 'is required when STEWARD_ROLE=bot');
}

/** The bot's Entra ID settings (app registration, OAuth connection, API scope), all required. */
export interface EntraBotSettings {
  appId: string;
  /** Empty for a managed identity (`MicrosoftAppType=UserAssignedMSI`), which has no secret. */
  appPassword: string;
  appTenantId: string | undefined;
  oauthConnection: string;
  apiScope: string;
  /** The cloud's sign-in endpoint, where the bot's own tokens come from. */
  authorityHost: string;
  /** Whether the bot's identity is Azure's managed identity `appId`. */
  managedIdentity: boolean;
}

/** The bot's settings when the API authenticates with Entra ID; a missing one is a ConfigError. */
export function entraBotSettings(bot: Config['bot']): EntraBotSettings {
  const { appId, appPassword, oauthConnection, apiScope } = bot;
  const managedIdentity = bot.appType === 'UserAssignedMSI';
  const missing = (
    [
      ['MicrosoftAppId', appId],
      ['MicrosoftAppPassword', managedIdentity ? 'not needed' : appPassword],
      ['STEWARD_BOT_OAUTH_CONNECTION', oauthConnection],
      ['STEWARD_BOT_API_SCOPE', apiScope],
    ] as const
  ).find(([, value]) => !value);
  if (missing) throw new ConfigError(missing[0], 'is required for the bot when STEWARD_AUTH_MODE=entra');
  return {
    appId: appId!,
    appPassword: appPassword ?? '',
    appTenantId: bot.appTenantId,
    oauthConnection: oauthConnection!,
    apiScope: apiScope!,
    authorityHost: bot.authorityHost,
    managedIdentity,
  };
}
