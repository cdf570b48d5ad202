import { ConfigurationBotFrameworkAuthentication } from 'botbuilder';
import type { BotFrameworkAuthentication } from 'botframework-connector';
import { ReusedClientsAuthentication } from './reusedClients';

/** The Bot Framework registration; with no app id the adapter accepts local, unauthenticated traffic only. */
export interface BotFrameworkSettings {
  appId?: string;
  appPassword?: string;
  appType?: string;
  appTenantId?: string;
  /** The cloud's Bot Framework endpoints (ChannelService, OAuthUrl, …); empty for the public cloud. */
  cloudSettings?: Record<string, string>;
}

/**
 * How the bot proves itself to the Bot Connector and checks what the channel sends: botbuilder's
 * configuration-driven authentication (a password, or the managed identity of
 * `MicrosoftAppType=UserAssignedMSI`, in the cloud's endpoints), with its clients kept from turn to turn.
 */
export function botFrameworkAuthentication(framework: BotFrameworkSettings): BotFrameworkAuthentication {
  return new ReusedClientsAuthentication(
    new ConfigurationBotFrameworkAuthentication(
      framework.appId
        ? {
            ...framework.cloudSettings,
            MicrosoftAppId: framework.appId,
            MicrosoftAppPassword: framework.appPassword,
            MicrosoftAppType: framework.appType,
            MicrosoftAppTenantId: framework.appTenantId,
          }
        : {},
    ),
  );
}
