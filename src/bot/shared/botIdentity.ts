import type { InvokeResponse, TurnContext } from 'botbuilder';

/** Who the person behind a turn is, as far as the API is concerned. */
export type CallerToken =
  | { kind: 'token'; token: string }
  /** The directory does not know them: the bot politely refuses. */
  | { kind: 'unknownPerson' }
  /** They must sign in first; the identity has already sent them a sign-in card. */
  | { kind: 'signInSent' };

/**
 * The tokens the bot calls the API with: the person's own for everything they do, and the bot's
 * app identity (INTEGRATION_MANAGER) for its webhook and for following jobs in the background.
 */
export interface BotIdentity {
  /** `embedded` (tokens minted in-process) or `production` (Teams SSO and Entra ID). */
  readonly mode: 'embedded' | 'production';
  /** The API token of the person behind this turn. */
  userToken(context: TurnContext): Promise<CallerToken>;
  /**
   * Whether the person behind this turn is one the bot keeps records for (where they are reached,
   * their language, their welcome): someone its directory knows. Sends nothing, asks for no sign-in.
   */
  knows(context: TurnContext): Promise<boolean>;
  /** The bot's own API token. */
  appToken(): Promise<string>;
  /** Answers the `signin/verifyState` and `signin/tokenExchange` invokes. */
  handleSignIn(context: TurnContext): Promise<InvokeResponse>;
}

/** What the composition root gives an embedded bot: tokens minted for directory people and for the bot's app. */
export interface EmbeddedTokens {
  /** A short-lived user token for a person of the directory; undefined for someone it does not know. */
  forUser(aadObjectId: string): Promise<string | undefined>;
  /** A token for the bot's app with the INTEGRATION_MANAGER role. */
  forApp(): Promise<string>;
}
