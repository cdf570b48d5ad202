import type { Activity } from 'botbuilder';
import {
  AuthenticationConstants,
  BotFrameworkAuthentication,
  ConnectorFactory,
  type AuthenticateRequestResult,
  type BotFrameworkClient,
  type ClaimsIdentity,
  type ConnectorClient,
  type UserTokenClient,
} from 'botframework-connector';

/** How many clients of each kind are kept: one per app id, service URL and audience in practice. */
const KEPT = 64;

/**
 * The adapter's Bot Framework authentication, with the outbound clients kept from turn to turn.
 *
 * botbuilder builds a new ConnectorClient and UserTokenClient for every turn, each with its own HTTP
 * pipeline and credentials object, and drops them when the turn ends: most of a chat turn's garbage,
 * and what makes the heap of a busy bot grow. Both clients hold no per-turn state (the credentials
 * cache and renew their own token), so they are kept by what they are built from — the bot's app id
 * from the caller's claims, the service URL and the audience — and shared by the turns that follow.
 * Authentication itself is the wrapped instance's, untouched.
 */
export class ReusedClientsAuthentication extends BotFrameworkAuthentication {
  private readonly connectors = new KeptPromises<ConnectorClient>(KEPT);
  private readonly tokenClients = new KeptPromises<UserTokenClient>(KEPT);

  constructor(private readonly inner: BotFrameworkAuthentication) {
    super();
  }

  async authenticateRequest(activity: Activity, authHeader: string): Promise<AuthenticateRequestResult> {
    return this.reusing(await this.inner.authenticateRequest(activity, authHeader));
  }

  async authenticateStreamingRequest(
    authHeader: string,
    channelIdHeader: string,
  ): Promise<AuthenticateRequestResult> {
    return this.reusing(await this.inner.authenticateStreamingRequest(authHeader, channelIdHeader));
  }

  createConnectorFactory(claimsIdentity: ClaimsIdentity): ConnectorFactory {
    return this.keptFactory(claimsIdentity, this.inner.createConnectorFactory(claimsIdentity));
  }

  createUserTokenClient(claimsIdentity: ClaimsIdentity): Promise<UserTokenClient> {
    return this.tokenClients.get(appIdOf(claimsIdentity), () =>
      this.inner.createUserTokenClient(claimsIdentity),
    );
  }

  override createBotFrameworkClient(): BotFrameworkClient {
    return this.inner.createBotFrameworkClient();
  }

  override getOriginatingAudience(): string {
    return this.inner.getOriginatingAudience();
  }

  override authenticateChannelRequest(authHeader: string): Promise<ClaimsIdentity> {
    return this.inner.authenticateChannelRequest(authHeader);
  }

  private reusing(result: AuthenticateRequestResult): AuthenticateRequestResult {
    if (!result.connectorFactory) return result;
    return { ...result, connectorFactory: this.keptFactory(result.claimsIdentity, result.connectorFactory) };
  }

  private keptFactory(claimsIdentity: ClaimsIdentity, factory: ConnectorFactory): ConnectorFactory {
    return new ReusedConnectorFactory(this.connectors, appIdOf(claimsIdentity), factory);
  }
}

/** A connector factory that hands out the kept client for the same app id, service URL and audience. */
class ReusedConnectorFactory extends ConnectorFactory {
  constructor(
    private readonly kept: KeptPromises<ConnectorClient>,
    private readonly appId: string,
    private readonly inner: ConnectorFactory,
  ) {
    super();
  }

  create(serviceUrl: string, audience?: string): Promise<ConnectorClient> {
    // No audience (proactive turns) means the channel's: a client of its own, kept like the others.
    const key = JSON.stringify([this.appId, serviceUrl, audience ?? null]);
    return this.kept.get(key, () => this.inner.create(serviceUrl, audience));
  }
}

/**
 * The app id the Bot Framework resolves for a caller, as botbuilder does: the audience claim (the
 * channel's tokens), else the app id claim (the Emulator's); '' when authentication is off.
 */
function appIdOf(claimsIdentity: ClaimsIdentity): string {
  return (
    claimsIdentity.getClaimValue(AuthenticationConstants.AudienceClaim) ??
    claimsIdentity.getClaimValue(AuthenticationConstants.AppIdClaim) ??
    ''
  );
}

/**
 * At most `limit` values by key, made once each and shared; the oldest is dropped to make room. A
 * value whose making fails is forgotten, so that the next caller tries again.
 */
class KeptPromises<T> {
  private readonly values = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    const kept = this.values.get(key);
    if (kept) return kept;
    const made = make();
    if (this.values.size >= this.limit) this.values.delete(this.values.keys().next().value as string);
    this.values.set(key, made);
    made.catch(() => {
      if (this.values.get(key) === made) this.values.delete(key);
    });
    return made;
  }
}
