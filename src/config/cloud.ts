import { setting } from './setting';
import { SETTINGS, type SettingName } from './settings';
import type { Read } from './values';

/**
 * The Microsoft clouds Steward can run in (`STEWARD_CLOUD`), with Microsoft's documented endpoints
 * for each. The individual settings (`STEWARD_GRAPH_BASE_URL`, `STEWARD_GRAPH_AUTHORITY_HOST`, and
 * the Bot Framework's own names such as `ChannelService` or `OAuthUrl`) still override these.
 *
 * Sources:
 * - Graph service roots and Entra ID (sign-in) endpoints: "Microsoft Graph national cloud
 *   deployments", https://learn.microsoft.com/graph/deployments
 * - Bot Framework, US Government (GCC High) and DoD: "Configure Bot Framework bots for US Government
 *   customers", https://learn.microsoft.com/azure/bot-service/how-to-deploy-gov-cloud-high
 * - Bot Framework, China: "Configure a bot in Microsoft Azure operated by 21Vianet",
 *   https://learn.microsoft.com/azure/bot-service/how-to-deploy-china-cloud (its login URL carries
 *   the bot's tenant for single-tenant and managed-identity bots)
 * - Teams' Bot Connector for proactive messages (the welcome in a new team): the Microsoft 365
 *   Agents SDK's `TeamsServiceEndpoints` (publicGlobal, gccHigh, dod), and Teams' "Send proactive
 *   messages" (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/conversations/send-proactive-messages),
 *   which gives the same GCC High host. Microsoft documents none for China: there a bot answers on
 *   the `serviceUrl` of incoming activities, and the welcome needs STEWARD_BOT_SERVICE_URL.
 */
export const CLOUDS = SETTINGS.STEWARD_CLOUD.choices;
export type CloudName = (typeof CLOUDS)[number];

export interface CloudEndpoints {
  name: CloudName;
  /** Microsoft Graph v1.0 root. */
  graphBaseUrl: string;
  /** Entra ID, where app tokens come from. */
  authorityHost: string;
  /** Settings for botbuilder's ConfigurationBotFrameworkAuthentication (empty: its public defaults). */
  botFramework: Record<string, string>;
  /** Teams' Bot Connector for messages the bot starts itself; undefined where none is documented. */
  botServiceUrl: string | undefined;
}

/** The Bot Connector's token audience in the public cloud (botbuilder's default `ToChannelFromBotOAuthScope`). */
const PUBLIC_BOT_OAUTH_SCOPE = 'https://api.botframework.com';

/** The `.default` scope of Bot Connector tokens in `cloud` (its `ToChannelFromBotOAuthScope`, overrides included). */
export function botConnectorScope(cloud: CloudEndpoints): string {
  return `${(cloud.botFramework.ToChannelFromBotOAuthScope ?? PUBLIC_BOT_OAUTH_SCOPE).replace(/\/+$/, '')}/.default`;
}

const US_GOV_BOT = {
  ChannelService: 'https://botframework.azure.us',
  ToChannelFromBotLoginUrl: 'https://login.microsoftonline.us/MicrosoftServices.onmicrosoft.us',
  ToChannelFromBotOAuthScope: 'https://api.botframework.us',
  ToBotFromChannelTokenIssuer: 'https://api.botframework.us',
  ToBotFromChannelOpenIdMetadataUrl: 'https://login.botframework.azure.us/v1/.well-known/openidconfiguration',
  ToBotFromEmulatorOpenIdMetadataUrl:
    'https://login.microsoftonline.us/cab8a31a-1906-4287-a0d8-4eef66b95f6e/v2.0/.well-known/openid-configuration',
  ValidateAuthority: 'true',
};

/** The endpoints of `name`; `botTenantId` goes into China's bot login URL (single tenant, managed identity). */
export function cloudEndpoints(name: CloudName, botTenantId?: string): CloudEndpoints {
  switch (name) {
    case 'public':
      return {
        name,
        graphBaseUrl: 'https://graph.microsoft.com/v1.0',
        authorityHost: 'https://login.microsoftonline.com',
        botFramework: {},
        // Teams' global Bot Connector, which routes proactive messages to the tenant's region.
        botServiceUrl: 'https://smba.trafficmanager.net/teams/',
      };
    case 'usgov':
      // GCC High; GCC (moderate) tenants use the public cloud's endpoints.
      return {
        name,
        graphBaseUrl: 'https://graph.microsoft.us/v1.0',
        authorityHost: 'https://login.microsoftonline.us',
        botFramework: { ...US_GOV_BOT, OAuthUrl: 'https://tokengcch.botframework.azure.us/' },
        botServiceUrl: 'https://smba.infra.gov.teams.microsoft.us/teams',
      };
    case 'usgovdod':
      return {
        name,
        graphBaseUrl: 'https://dod-graph.microsoft.us/v1.0',
        authorityHost: 'https://login.microsoftonline.us',
        botFramework: { ...US_GOV_BOT, OAuthUrl: 'https://apiDoD.botframework.azure.us' },
        botServiceUrl: 'https://smba.infra.dod.teams.microsoft.us/teams',
      };
    case 'china':
      return {
        name,
        graphBaseUrl: 'https://microsoftgraph.chinacloudapi.cn/v1.0',
        authorityHost: 'https://login.chinacloudapi.cn',
        botFramework: {
          OAuthUrl: 'https://token.botframework.azure.cn/',
          ToChannelFromBotLoginUrl: `https://login.partner.microsoftonline.cn/${botTenantId ?? 'microsoftservices.partner.onmschina.cn'}`,
          ToChannelFromBotOAuthScope: 'https://api.botframework.azure.cn',
          ToBotFromChannelTokenIssuer: 'https://api.botframework.azure.cn',
          ToBotFromChannelOpenIdMetadataUrl:
            'https://login.botframework.azure.cn/v1/.well-known/openidconfiguration',
          ToBotFromEmulatorOpenIdMetadataUrl:
            'https://login.partner.microsoftonline.cn/a55a4d5b-9241-49b1-b4ff-befa8db00269/v2.0/.well-known/openid-configuration',
          ValidateAuthority: 'true',
        },
        botServiceUrl: undefined,
      };
  }
}

/** The Bot Framework settings a deployment may set one by one, over its cloud's (`ChannelService`, …). */
const BOT_FRAMEWORK_OVERRIDES = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name): name is BotFrameworkName => SETTINGS[name].section === 'botFramework',
);
type BotFrameworkName = {
  [N in SettingName]: (typeof SETTINGS)[N]['section'] extends 'botFramework' ? N : never;
}[SettingName];

/** `STEWARD_CLOUD` (default public) and its endpoints, with the Bot Framework settings set one by one. */
export function cloud(read: Read): CloudEndpoints {
  const endpoints = cloudEndpoints(setting(read, 'STEWARD_CLOUD'), setting(read, 'MicrosoftAppTenantId'));
  for (const name of BOT_FRAMEWORK_OVERRIDES) {
    const value = setting(read, name);
    if (value !== undefined) endpoints.botFramework[name] = value;
  }
  return endpoints;
}
