import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type KeyLike, SignJWT } from 'jose';
import type { AppRole } from '../../src/contract/roles';

/**
 * Entra ID's side of `STEWARD_AUTH_MODE=entra` for tests: a JWKS endpoint on loopback with one RS256
 * key, and v2.0 access tokens signed with it for people (`oid`, app roles in `roles`) and apps
 * (`idtyp: app`, `azp`), issued for `audience` in `tenantId`.
 */
export class EntraTokens {
  private constructor(
    private readonly server: Server,
    private readonly key: KeyLike,
    /** The key that verifies these tokens (what Entra ID's token endpoint checks an assertion with). */
    readonly publicKey: KeyLike,
    readonly tenantId: string,
    readonly audience: string,
  ) {}

  static async start(tenantId: string, audience: string): Promise<EntraTokens> {
    const pair = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'entra-test-key', alg: 'RS256', use: 'sig' };
    // Restify patches http.ServerResponse so that writeHead() no longer returns it: no chaining.
    const server = createServer((req, res) => {
      res.statusCode = req.url === '/keys' ? 200 : 404;
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/keys' ? JSON.stringify({ keys: [jwk] }) : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new EntraTokens(server, pair.privateKey, pair.publicKey, tenantId, audience);
  }

  get issuer(): string {
    return `https://login.microsoftonline.com/${this.tenantId}/v2.0`;
  }

  /** The settings of a Steward that trusts these tokens. */
  settings(): Record<string, string> {
    return {
      STEWARD_AUTH_MODE: 'entra',
      STEWARD_TENANT_ID: this.tenantId,
      STEWARD_AUTH_JWKS_URI: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/keys`,
      STEWARD_AUTH_ISSUER: this.issuer,
      STEWARD_AUTH_AUDIENCE: this.audience,
    };
  }

  /** A person's token with their app roles. */
  user(oid: string, name: string, roles: AppRole[] = []): Promise<string> {
    return this.sign({ oid, name, idtyp: 'user', roles });
  }

  /** An application's token (client credentials) with its app roles. */
  app(appId: string, roles: AppRole[] = []): Promise<string> {
    return this.sign({ azp: appId, idtyp: 'app', roles });
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private sign(claims: Record<string, unknown>): Promise<string> {
    return new SignJWT({ ...claims, tid: this.tenantId, ver: '2.0' })
      .setProtectedHeader({ alg: 'RS256', kid: 'entra-test-key' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(this.key);
  }
}
