import type { InvokeResponse, TurnContext } from 'botbuilder';
import type { BotIdentity, CallerToken, EmbeddedTokens } from '../shared/botIdentity';

/**
 * Embedded mode: the API trusts tokens signed with the deployment's secret, so the bot mints a
 * short-lived token for the `aadObjectId` the channel reports. Anyone the directory does not know
 * gets a polite refusal. Meant for the embedded tenant and local channels, where the channel is trusted.
 */
export class EmbeddedIdentity implements BotIdentity {
  readonly mode = 'embedded' as const;

  constructor(private readonly tokens: EmbeddedTokens) {}

  /** A token for the person behind the turn, or `unknownPerson`. */
  async userToken(context: TurnContext): Promise<CallerToken> {
    const id = context.activity.from?.aadObjectId?.trim();
    if (!id) return { kind: 'unknownPerson' };
    const token = await this.tokens.forUser(id);
    return token ? { kind: 'token', token } : { kind: 'unknownPerson' };
  }

  /** Whether the directory knows the person behind the turn (the check `userToken` makes). */
  async knows(context: TurnContext): Promise<boolean> {
    const id = context.activity.from?.aadObjectId?.trim();
    return Boolean(id && (await this.tokens.forUser(id)));
  }

  /** The bot's app token. */
  appToken(): Promise<string> {
    return this.tokens.forApp();
  }

  /** Nobody signs in in embedded mode. */
  async handleSignIn(_context: TurnContext): Promise<InvokeResponse> {
    return { status: 200 };
  }
}
