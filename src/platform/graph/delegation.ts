import { ConfidentialClientApplication } from '@azure/msal-node';
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
 * for `LABEL_PERMISSION` only. msal's in-memory cache is emptied after each exchange, so no
 * person's token outlives the call in this process; the caller decides where the grant goes.
 */
export class GraphDelegation implements DelegatedAccess {
  private readonly app: ConfidentialClientApplication;
  private readonly network: UndiciNetworkModule;

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

  async exchange(person: SignedInPerson): Promise<DelegatedGrant> {
    let result;
    try {
      result = await this.app.acquireTokenOnBehalfOf({
        oboAssertion: person.assertion,
        scopes: [`${this.client.graphOrigin}/${LABEL_PERMISSION}`],
        skipCache: true,
      });
    } catch (error) {
      throw refused(error);
    } finally {
      this.app.clearCache();
    }
    if (!result?.accessToken || !result.expiresOn) {
      throw new DelegationUnavailable('Entra ID answered the on-behalf-of request without a token.');
    }
    return { userId: person.userId, token: result.accessToken, expiresAt: result.expiresOn };
  }
}

/** Entra ID's refusal in a sentence: its error code and AADSTS number, never the request. */
function refused(error: unknown): DelegationUnavailable {
  const fields = (error ?? {}) as { errorCode?: unknown; errorMessage?: unknown };
  const code = typeof fields.errorCode === 'string' ? fields.errorCode : 'unknown_error';
  const aadsts =
    typeof fields.errorMessage === 'string' ? /AADSTS\d+/.exec(fields.errorMessage)?.[0] : undefined;
  return new DelegationUnavailable(
    `Entra ID did not exchange the person's sign-in for a delegated Microsoft Graph token (${code}${aadsts ? `, ${aadsts}` : ''}).`,
  );
}

/** No exchange is possible in this deployment; `reason` says why. */
export class NoDelegation implements DelegatedAccess {
  constructor(private readonly reason: string) {}

  exchange(): Promise<DelegatedGrant> {
    return Promise.reject(new DelegationUnavailable(this.reason));
  }
}
