import { type AuthenticationResult, ConfidentialClientApplication } from '@azure/msal-node';
import type { Dispatcher } from 'undici';
import type { DelegatedGrant, SignedInPerson } from '../../domain/delegation';
import { DelegationUnavailable } from '../../domain/errors';
import type { DelegatedAccess } from '../port';
import { UndiciNetworkModule } from './token';

/**
 * The delegated permission a label needs: `Group.ReadWrite.All` is the least that lets a person
 * update a Microsoft 365 group's `assignedLabels` (`api/group-update.md`; Graph then also checks
 * that the person may change that group: an owner, or a groups administrator).
 */
export const LABEL_PERMISSION = 'Group.ReadWrite.All';

/** The app registration that receives people's tokens (the API's) and may exchange them. */
export interface OnBehalfOfClient {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  authorityHost: string;
  /** The origin of the cloud's Graph (`https://graph.microsoft.com`): its scopes hang off it. */
  graphOrigin: string;
}

/**
 * People's sign-ins exchanged for delegated Graph tokens by the OAuth 2.0 on-behalf-of flow
 * (Microsoft identity platform, "OAuth 2.0 On-Behalf-Of flow"), through msal-node's
 * `acquireTokenOnBehalfOf`: the API's app registration sends the person's access token (whose
 * `aud` must be that app) as the `assertion`, with `requested_token_use=on_behalf_of`, and asks
 * for `LABEL_PERMISSION` (msal adds `offline_access`, so the answer carries a refresh token: "The
 * refresh token is only provided if the offline_access scope was requested").
 *
 * The refresh token is what lets a label wait for an approval that takes days: an access token
 * lives about an hour, a refresh token 90 days ("Refresh tokens", Microsoft identity platform: "90
 * days for all other scenarios"; each use returns a new one). msal-node keeps an on-behalf-of
 * refresh token only in its cache and never refreshes with it itself ("we are not yet supported OBO
 * tokens refreshed with long lived RT", `OnBehalfOfClient`), so it is read from the serialized
 * cache (msal's token cache format, `RefreshToken` entries) and redeemed later with
 * `acquireTokenByRefreshToken`. The cache is emptied after each call and calls run one at a time,
 * so the one refresh token in it is the person's and no token outlives the call in this process;
 * the caller decides where the grant goes (sealed, with its job).
 */
export class GraphDelegation implements DelegatedAccess {
  private readonly app: ConfidentialClientApplication;
  private readonly network: UndiciNetworkModule;
  /** The calls in turn: the cache holds one person's tokens at a time. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: OnBehalfOfClient,
    dispatcher: Dispatcher,
  ) {
    this.network = new UndiciNetworkModule(dispatcher);
    this.app = new ConfidentialClientApplication({
      auth: {
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        authority: `${client.authorityHost}/${client.tenantId}`,
        knownAuthorities: [new URL(client.authorityHost).host],
      },
      system: { networkClient: this.network },
    });
  }

  exchange(person: SignedInPerson): Promise<DelegatedGrant> {
    return this.inTurn(person.userId, undefined, () =>
      this.app.acquireTokenOnBehalfOf({
        oboAssertion: person.assertion,
        scopes: [this.scope()],
        skipCache: true,
      }),
    );
  }

  refresh(grant: DelegatedGrant): Promise<DelegatedGrant> {
    const refreshToken = grant.refreshToken;
    if (!refreshToken) {
      return Promise.reject(
        new DelegationUnavailable('The delegated grant has no refresh token to renew it with.'),
      );
    }
    return this.inTurn(grant.userId, refreshToken, () =>
      this.app.acquireTokenByRefreshToken({ refreshToken, scopes: [this.scope()] }),
    );
  }

  private scope(): string {
    return `${this.client.graphOrigin}/${LABEL_PERMISSION}`;
  }

  /** Runs `call` alone, reads the refresh token it left in msal's cache, then empties the cache. */
  private inTurn(
    userId: string,
    previousRefreshToken: string | undefined,
    call: () => Promise<AuthenticationResult | null>,
  ): Promise<DelegatedGrant> {
    const run = async (): Promise<DelegatedGrant> => {
      let result: AuthenticationResult | null;
      let refreshToken: string | undefined;
      try {
        result = await call();
        refreshToken = refreshTokenIn(this.app.getTokenCache().serialize());
      } catch (error) {
        throw refused(error);
      } finally {
        this.app.clearCache();
      }
      if (!result?.accessToken || !result.expiresOn) {
        throw new DelegationUnavailable('Entra ID answered without a token.');
      }
      const kept = refreshToken ?? previousRefreshToken;
      return {
        userId,
        token: result.accessToken,
        expiresAt: result.expiresOn,
        ...(kept ? { refreshToken: kept } : {}),
      };
    };
    const next = this.turn.then(run, run);
    this.turn = next.catch(() => undefined);
    return next;
  }
}

/** The one refresh token in msal's serialized cache (its `RefreshToken` section), if there is one. */
function refreshTokenIn(serialized: string): string | undefined {
  const cache = JSON.parse(serialized) as { RefreshToken?: Record<string, { secret?: unknown }> };
  const secrets = Object.values(cache.RefreshToken ?? {})
    .map((entry) => entry.secret)
    .filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
  return secrets.length === 1 ? secrets[0] : undefined;
}

/** Entra ID's refusal in a sentence: its error code and AADSTS number, never the request. */
function refused(error: unknown): DelegationUnavailable {
  const fields = (error ?? {}) as { errorCode?: unknown; errorMessage?: unknown };
  const code = typeof fields.errorCode === 'string' ? fields.errorCode : 'unknown_error';
  const aadsts =
    typeof fields.errorMessage === 'string' ? /AADSTS\d+/.exec(fields.errorMessage)?.[0] : undefined;
  return new DelegationUnavailable(
    `Entra ID did not give a delegated Microsoft Graph token for the person (${code}${aadsts ? `, ${aadsts}` : ''}).`,
  );
}

/** No exchange is possible in this deployment; `reason` says why. */
export class NoDelegation implements DelegatedAccess {
  constructor(private readonly reason: string) {}

  exchange(): Promise<DelegatedGrant> {
    return Promise.reject(new DelegationUnavailable(this.reason));
  }

  refresh(): Promise<DelegatedGrant> {
    return Promise.reject(new DelegationUnavailable(this.reason));
  }
}
