import {
  ConfidentialClientApplication,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from '@azure/msal-node';
import { type Dispatcher, request } from 'undici';
import { PlatformError } from '../port';

/** Where the Graph client gets its bearer token; tests may hand in their own. */
export interface TokenSource {
  /** A valid access token for Graph; `forceRefresh` skips the cache (after Graph refused a token). */
  getToken(options?: { forceRefresh?: boolean }): Promise<string>;
}

/** The app registration Steward signs in as. */
export interface AppCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** `https://login.microsoftonline.com`, or a sovereign cloud's, or a test's fake. */
  authorityHost: string;
}

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

/**
 * App-only tokens from Entra ID by the client-credentials grant, through msal-node, which caches
 * the token until shortly before it expires. Its HTTP calls go through our undici dispatcher, so
 * they share the pool, the proxy and the trust settings of the Graph calls.
 */
export class MsalTokenSource implements TokenSource {
  private readonly app: ConfidentialClientApplication;
  private readonly network: UndiciNetworkModule;
  /** The token request under way: callers that arrive meanwhile share it instead of asking again. */
  private pending: Promise<string> | undefined;

  constructor(
    credentials: AppCredentials,
    dispatcher: Dispatcher,
    private readonly scope = GRAPH_SCOPE,
  ) {
    const host = new URL(credentials.authorityHost).host;
    this.network = new UndiciNetworkModule(dispatcher);
    this.app = new ConfidentialClientApplication({
      auth: {
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        authority: `${credentials.authorityHost}/${credentials.tenantId}`,
        // Trusting the configured host skips msal's instance discovery against the public cloud, so
        // sovereign clouds and the loopback fake of the tests work; the OpenID metadata is still read
        // from the authority itself.
        knownAuthorities: [host],
      },
      system: { networkClient: this.network },
    });
  }

  /** An access token, from msal's cache when it is still fresh. */
  getToken(options: { forceRefresh?: boolean } = {}): Promise<string> {
    // msal does not merge concurrent cache misses; a cold start with many workers would otherwise
    // send one token request per Graph call in flight.
    if (this.pending && !options.forceRefresh) return this.pending;
    const pending = this.acquire(options.forceRefresh === true).finally(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  private async acquire(forceRefresh: boolean): Promise<string> {
    const failuresBefore = this.network.failures;
    let result;
    try {
      result = await this.app.acquireTokenByClientCredential({
        scopes: [this.scope],
        skipCache: forceRefresh,
      });
    } catch (error) {
      // msal reports an unreachable or failing Entra ID as its own errors (endpoints_resolution_error…);
      // what our network module saw on the way tells an outage from a configuration mistake.
      throw tokenError(error, this.network.failures > failuresBefore);
    }
    if (!result?.accessToken)
      throw new PlatformError('Entra ID returned no access token for Graph', 401, false);
    return result.accessToken;
  }
}

/** msal's view of an error: codes only, never the request (which holds the client secret). */
export function tokenError(error: unknown, networkFailed: boolean): PlatformError {
  const fields = (error ?? {}) as { errorCode?: unknown; errorMessage?: unknown; status?: unknown };
  const code = typeof fields.errorCode === 'string' ? fields.errorCode : 'unknown_error';
  const status = typeof fields.status === 'number' ? fields.status : 0;
  // Entra's own outages and our network failures pass; a wrong secret or tenant does not.
  const transient = networkFailed || status >= 500 || status === 429 || code === 'temporarily_unavailable';
  const detail = typeof fields.errorMessage === 'string' ? `: ${fields.errorMessage.split('\n')[0]}` : '';
  return new PlatformError(
    `Could not get a Graph token from Entra ID (${code})${detail}`,
    status || 401,
    transient,
  );
}

/** msal's network interface over undici. */
export class UndiciNetworkModule implements INetworkModule {
  /** Requests that failed on the network or with a 5xx/429, for telling outages from mistakes. */
  failures = 0;

  constructor(private readonly dispatcher: Dispatcher) {}

  /** GET for msal (OpenID metadata, instance discovery). */
  sendGetRequestAsync<T>(url: string, options?: NetworkRequestOptions, timeout?: number) {
    return this.send<T>('GET', url, options, timeout);
  }

  /** POST for msal (the token endpoint). */
  sendPostRequestAsync<T>(url: string, options?: NetworkRequestOptions) {
    return this.send<T>('POST', url, options);
  }

  private async send<T>(
    method: 'GET' | 'POST',
    url: string,
    options: NetworkRequestOptions = {},
    timeout = 30_000,
  ): Promise<NetworkResponse<T>> {
    let response;
    try {
      response = await request(url, {
        method,
        headers: options.headers,
        body: options.body,
        dispatcher: this.dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (error) {
      this.failures++;
      const code = (error as { code?: unknown }).code;
      throw new PlatformError(
        `Could not reach Entra ID at ${new URL(url).host} (${typeof code === 'string' ? code : 'network error'})`,
        0,
        true,
      );
    }
    const text = await response.body.text();
    if (response.statusCode >= 500 || response.statusCode === 429) this.failures++;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let body: unknown = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = {
        error: 'invalid_response',
        error_description: `Entra ID answered ${response.statusCode} with non-JSON`,
      };
    }
    return { status: response.statusCode, headers, body: body as T };
  }
}
