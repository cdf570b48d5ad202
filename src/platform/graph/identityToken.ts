import {
  ClientCertificateCredential,
  ManagedIdentityCredential,
  type TokenCredential,
} from '@azure/identity';
import type { Dispatcher } from 'undici';
import { PlatformError } from '../port';
import { GRAPH_SCOPE, MsalTokenSource, type TokenSource } from './token';

/** What picks Steward's Graph token source: the app and one of its three credentials. */
export interface GraphCredentialSettings {
  tenantId: string;
  clientId: string;
  clientSecret?: string;
  certificatePath?: string;
  managedIdentity?: boolean;
  authorityHost: string;
  scope?: string;
}

/**
 * Tokens from an `@azure/identity` credential: a certificate (client assertion) or Azure's managed
 * identity. The credential caches the token until shortly before it expires.
 */
export class AzureIdentityTokenSource implements TokenSource {
  constructor(
    private readonly credential: TokenCredential,
    private readonly scope: string,
  ) {}

  async getToken(): Promise<string> {
    let token: { token: string } | null;
    try {
      token = await this.credential.getToken(this.scope);
    } catch (error) {
      // The credential's message names the endpoint and the reason, never a secret.
      throw new PlatformError(
        `Entra ID refused or did not answer the token request (${(error as Error).name})`,
        503,
        true,
      );
    }
    if (!token) throw new PlatformError('Entra ID returned no access token for Graph', 401, false);
    return token.token;
  }
}

/** The token source of the configured credential: msal-node for a secret, @azure/identity otherwise. */
export function graphTokenSource(settings: GraphCredentialSettings, dispatcher: Dispatcher): TokenSource {
  const scope = settings.scope ?? GRAPH_SCOPE;
  if (settings.clientSecret !== undefined)
    return new MsalTokenSource({ ...settings, clientSecret: settings.clientSecret }, dispatcher, scope);
  if (settings.certificatePath !== undefined)
    return new AzureIdentityTokenSource(
      new ClientCertificateCredential(
        settings.tenantId,
        settings.clientId,
        { certificatePath: settings.certificatePath },
        // Trust the configured authority as MsalTokenSource does (its knownAuthorities): instance
        // discovery would ask the public cloud's login.microsoftonline.com about any other host,
        // which fails for a loopback or private authority (the token request then never leaves).
        { authorityHost: settings.authorityHost, disableInstanceDiscovery: true },
      ),
      scope,
    );
  return new AzureIdentityTokenSource(new ManagedIdentityCredential({ clientId: settings.clientId }), scope);
}
