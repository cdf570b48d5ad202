import { ConfidentialClientApplication } from '@azure/msal-node';
import {
  type Activity,
  CardFactory,
  type InvokeResponse,
  MessageFactory,
  type SignInUrlResponse,
  type TokenExchangeRequest,
  type TokenResponse,
  type TurnContext,
} from 'botbuilder';
import type { BotIdentity, CallerToken } from '../shared/botIdentity';

/** Settings of the production identity (Teams SSO for people, Entra ID client credentials for the bot). */
export interface ProductionIdentityOptions {
  /** The OAuth connection of the bot registration that issues tokens for the API. */
  oauthConnection: string;
  /** The bot's Entra ID application: its id, secret and tenant. */
  appId: string;
  appPassword: string;
  appTenantId?: string;
  /** The scope of the API, e.g. `api://steward/.default`. */
  apiScope: string;
  /** Where Entra ID answers (default `https://login.microsoftonline.com`). */
  authorityHost?: string;
  /** Acquires the bot's token instead of MSAL (tests). */
  acquireAppToken?: () => Promise<string>;
}

const SIGN_IN_TEXT = 'Sign in so Steward can request teams and follow them for you.';

/**
 * Production mode: the person's token comes from the bot's OAuth connection (Teams SSO token
 * exchange, with a sign-in card as the fallback) and is forwarded to the API; the bot's own token
 * comes from Entra ID with client credentials. Tokens are never logged or shown.
 */
export class ProductionIdentity implements BotIdentity {
  readonly mode = 'production' as const;
  private readonly acquireAppToken: () => Promise<string>;

  constructor(private readonly options: ProductionIdentityOptions) {
    if (options.acquireAppToken) {
      this.acquireAppToken = options.acquireAppToken;
    } else {
      const msal = new ConfidentialClientApplication({
        auth: {
          clientId: options.appId,
          clientSecret: options.appPassword,
          authority: `${options.authorityHost ?? 'https://login.microsoftonline.com'}/${options.appTenantId ?? 'organizations'}`,
        },
      });
      this.acquireAppToken = async () => {
        const result = await msal.acquireTokenByClientCredential({ scopes: [options.apiScope] });
        if (!result?.accessToken) throw new Error('Entra ID returned no token for the bot.');
        return result.accessToken;
      };
    }
  }

  /** The person's token from the token service, or a sign-in card sent to them. */
  async userToken(context: TurnContext): Promise<CallerToken> {
    const client = userTokenClientOf(context);
    const { from, channelId } = context.activity;
    if (!client || !from?.id) return { kind: 'unknownPerson' };
    const answer = await client.getUserToken(from.id, this.options.oauthConnection, channelId, '');
    if (answer?.token) return { kind: 'token', token: answer.token };
    const resource = await client.getSignInResource(this.options.oauthConnection, context.activity, '');
    const card = CardFactory.oauthCard(
      this.options.oauthConnection,
      'Sign in to Steward',
      SIGN_IN_TEXT,
      resource.signInLink,
      resource.tokenExchangeResource,
      resource.tokenPostResource,
    );
    await context.sendActivity(MessageFactory.attachment(card));
    return { kind: 'signInSent' };
  }

  /**
   * Anyone with an Entra ID object id: the Bot Framework authenticated the activity, so Teams sent
   * it for an account it signed in (the API checks the person's directory when they act).
   */
  async knows(context: TurnContext): Promise<boolean> {
    return Boolean(context.activity.from?.aadObjectId);
  }

  /** The bot's app token (MSAL caches it until shortly before it expires). */
  appToken(): Promise<string> {
    return this.acquireAppToken();
  }

  /** Teams SSO (`signin/tokenExchange`) and the magic code of the sign-in card (`signin/verifyState`). */
  async handleSignIn(context: TurnContext): Promise<InvokeResponse> {
    const client = userTokenClientOf(context);
    const { from, channelId, name } = context.activity;
    const value = (context.activity.value ?? {}) as { id?: string; token?: string; state?: string };
    const connection = this.options.oauthConnection;
    if (!client || !from?.id) return { status: 412 };
    if (name === 'signin/tokenExchange') {
      const exchanged = await client
        .exchangeToken(from.id, connection, channelId, { token: value.token })
        .catch(() => undefined);
      if (exchanged?.token) return { status: 200, body: { id: value.id, connectionName: connection } };
      // 412 tells Teams to show the sign-in card instead.
      return {
        status: 412,
        body: {
          id: value.id,
          connectionName: connection,
          failureDetail: 'The token could not be exchanged.',
        },
      };
    }
    const answer = await client.getUserToken(from.id, connection, channelId, String(value.state ?? ''));
    if (answer?.token) await context.sendActivity('You are signed in. Send your request again.');
    return { status: 200 };
  }
}

/** What the bot uses of botbuilder's `UserTokenClient` (the Bot Framework token service). */
export interface TokenServiceClient {
  getUserToken(
    userId: string,
    connectionName: string,
    channelId: string,
    magicCode: string,
  ): Promise<TokenResponse>;
  getSignInResource(
    connectionName: string,
    activity: Activity,
    finalRedirect: string,
  ): Promise<SignInUrlResponse>;
  exchangeToken(
    userId: string,
    connectionName: string,
    channelId: string,
    request: TokenExchangeRequest,
  ): Promise<TokenResponse>;
}

/** The token service client the adapter put into the turn (CloudAdapter does, for every turn). */
function userTokenClientOf(context: TurnContext): TokenServiceClient | undefined {
  const adapter = context.adapter as unknown as { UserTokenClientKey?: symbol };
  return adapter.UserTokenClientKey ? context.turnState.get(adapter.UserTokenClientKey) : undefined;
}
