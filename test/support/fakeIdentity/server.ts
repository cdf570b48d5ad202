import { createHash, X509Certificate } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { decodeProtectedHeader, importX509, jwtVerify } from 'jose';
import { FAKE_GRAPH_CERT, KEY } from '../fakeGraph/certificate';

/**
 * Azure's token endpoints for an app without a secret, on loopback, speaking Microsoft's protocols:
 *
 * - Entra ID's client-credentials grant with a certificate ("Microsoft identity platform application
 *   authentication certificate credentials", learn.microsoft.com/entra/identity-platform/certificate-credentials):
 *   `POST /{tenant}/oauth2/v2.0/token` with `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`
 *   and a `client_assertion` JWT whose header names the certificate (`x5t#S256` with PS256, or the
 *   older `x5t` with RS256) and whose claims are aud = the token endpoint, iss = sub = the client id,
 *   jti, nbf, exp. The signature is verified against the registered certificate's public key. Served
 *   over HTTPS (msal accepts only https authorities) with the Graph simulator's certificate.
 * - App Service's managed identity endpoint ("How to use managed identities for App Service",
 *   learn.microsoft.com/azure/app-service/overview-managed-identity, REST protocol):
 *   `GET {IDENTITY_ENDPOINT}?api-version=2019-08-01&resource=…&client_id=…` with the
 *   `X-IDENTITY-HEADER` secret, answered with access_token, expires_on (epoch seconds), resource,
 *   token_type and client_id. Plain HTTP, as App Service's local endpoint is.
 *
 * Tokens come from `issue` (e.g. a token the Graph simulator accepts), so that what Steward then
 * sends to Graph can be told apart from anything else.
 */
export class FakeIdentity {
  /** Every assertion that passed, with what it was checked against. */
  readonly assertions: Array<{ clientId: string; alg: string; thumbprint: string; audience: string }> = [];
  /** Every refused token request, with the reason (the error's description). */
  readonly refusals: string[] = [];
  /** Managed identity token requests answered. */
  readonly managedIdentityRequests: Array<{ resource: string; clientId: string | null; apiVersion: string }> =
    [];
  /** Every token handed out. */
  readonly issued: string[] = [];
  /** The secret App Service puts in IDENTITY_HEADER. */
  readonly identityHeader = 'fake-identity-header-secret';

  private entraServer?: Server;
  private managedServer?: Server;
  private readonly usedJti = new Set<string>();

  private constructor(
    readonly tenantId: string,
    private readonly app: { clientId: string; certificate: string },
    private readonly managed: { clientId: string },
    private readonly issue: (audience: string) => Promise<string>,
  ) {}

  static async start(options: {
    tenantId: string;
    app: { clientId: string; certificate: string };
    managedIdentity: { clientId: string };
    issue: (audience: string) => Promise<string>;
  }): Promise<FakeIdentity> {
    const fake = new FakeIdentity(options.tenantId, options.app, options.managedIdentity, options.issue);
    fake.entraServer = createHttpsServer(
      { key: KEY, cert: FAKE_GRAPH_CERT },
      (req, res) => void fake.entra(req, res),
    );
    fake.managedServer = createHttpServer((req, res) => void fake.managedIdentity(req, res));
    await Promise.all(
      [fake.entraServer, fake.managedServer].map(
        (server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
      ),
    );
    return fake;
  }

  /** Entra ID's authority host (STEWARD_GRAPH_AUTHORITY_HOST). */
  get authorityHost(): string {
    return `https://127.0.0.1:${(this.entraServer!.address() as { port: number }).port}`;
  }

  /** App Service's IDENTITY_ENDPOINT. */
  get identityEndpoint(): string {
    return `http://127.0.0.1:${(this.managedServer!.address() as { port: number }).port}/msi/token`;
  }

  async close(): Promise<void> {
    for (const server of [this.entraServer, this.managedServer]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  }

  private async entra(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.authorityHost);
    const base = `${this.authorityHost}/${this.tenantId}`;
    if (req.method === 'GET' && url.pathname === `/${this.tenantId}/v2.0/.well-known/openid-configuration`) {
      return send(res, 200, {
        token_endpoint: `${base}/oauth2/v2.0/token`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
        issuer: `${base}/v2.0`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
      });
    }
    if (req.method !== 'POST' || url.pathname !== `/${this.tenantId}/oauth2/v2.0/token`)
      return send(res, 404, { error: 'invalid_request', error_description: 'AADSTS90002: no such endpoint' });
    const form = Object.fromEntries(new URLSearchParams(await body(req)));
    const refuse = (status: number, error: string, description: string) => {
      this.refusals.push(description);
      send(res, status, { error, error_description: description });
    };
    if (form.grant_type !== 'client_credentials') return refuse(400, 'unsupported_grant_type', 'grant_type');
    if (form.client_id !== this.app.clientId) return refuse(400, 'unauthorized_client', 'AADSTS700016');
    if (form.client_secret !== undefined) return refuse(401, 'invalid_client', 'a secret was sent');
    if (
      form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
      !form.client_assertion
    )
      return refuse(400, 'invalid_client', 'AADSTS7000216: client_assertion is required');
    const scope = (form.scope ?? '').split(' ').find((s) => s.endsWith('/.default'));
    if (!scope) return refuse(400, 'invalid_scope', 'AADSTS1002012');
    const problem = await this.checkAssertion(form.client_assertion, `${base}/oauth2/v2.0/token`);
    if (problem) return refuse(401, 'invalid_client', `AADSTS700027: ${problem}`);
    const token = await this.issue(scope.replace(/\/\.default$/, ''));
    this.issued.push(token);
    send(res, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
  }

  /** Why the assertion is refused, or null: header, signature by the certificate, and claims. */
  private async checkAssertion(assertion: string, tokenEndpoint: string): Promise<string | null> {
    const certificate = new X509Certificate(this.app.certificate);
    const thumbprint = (algorithm: string) =>
      createHash(algorithm).update(certificate.raw).digest('base64url');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(assertion);
    } catch {
      return 'the assertion is not a JWT';
    }
    const named =
      header.alg === 'PS256' ? header['x5t#S256'] : header.alg === 'RS256' ? header.x5t : undefined;
    const expected = thumbprint(header.alg === 'PS256' ? 'sha256' : 'sha1');
    if (named !== expected)
      return `no certificate with thumbprint ${String(named)} is registered for the app`;
    try {
      const key = await importX509(this.app.certificate, header.alg!);
      const { payload } = await jwtVerify(assertion, key, {
        algorithms: ['PS256', 'RS256'],
        audience: tokenEndpoint,
        issuer: this.app.clientId,
        subject: this.app.clientId,
        requiredClaims: ['jti', 'exp', 'nbf'],
        // Entra ID allows five minutes of clock skew on an assertion's times, and MSAL rounds its
        // `nbf` to the nearest second, so a strict check here refuses half of real assertions.
        clockTolerance: '5 minutes',
      });
      if (this.usedJti.has(String(payload.jti))) return 'the assertion was used before';
      this.usedJti.add(String(payload.jti));
    } catch (error) {
      return `the assertion did not verify (${(error as Error).message})`;
    }
    this.assertions.push({
      clientId: this.app.clientId,
      alg: header.alg!,
      thumbprint: expected,
      audience: tokenEndpoint,
    });
    return null;
  }

  private async managedIdentity(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.identityEndpoint);
    if (req.method !== 'GET' || url.pathname !== '/msi/token')
      return send(res, 404, { statusCode: 404, message: 'not found' });
    if (req.headers['x-identity-header'] !== this.identityHeader)
      return send(res, 401, { statusCode: 401, message: 'X-IDENTITY-HEADER is missing or wrong' });
    const apiVersion = url.searchParams.get('api-version') ?? '';
    const resource = url.searchParams.get('resource') ?? '';
    const clientId = url.searchParams.get('client_id');
    if (apiVersion !== '2019-08-01' || !resource)
      return send(res, 400, { statusCode: 400, message: 'api-version 2019-08-01 and resource are required' });
    if (clientId !== null && clientId !== this.managed.clientId)
      return send(res, 400, { statusCode: 400, message: `no identity with client id ${clientId}` });
    this.managedIdentityRequests.push({ resource, clientId, apiVersion });
    const token = await this.issue(resource.replace(/\/+$/, ''));
    this.issued.push(token);
    send(res, 200, {
      access_token: token,
      expires_on: String(Math.floor(Date.now() / 1000) + 3600),
      resource,
      token_type: 'Bearer',
      client_id: this.managed.clientId,
    });
  }
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(payload));
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
