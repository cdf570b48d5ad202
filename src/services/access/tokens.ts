import { SignJWT } from 'jose';
import type { AppRole } from '../../contract/roles';

/** What an embedded token says about its bearer. */
export interface TokenSubject {
  /** Object id of a user, or id of an app. */
  id: string;
  name?: string;
  upn?: string;
  roles?: readonly AppRole[];
  app?: boolean;
}

/**
 * Mints HS256 tokens in the embedded issuer's format. Used by `npm run token`, by tests, and by the
 * bot in embedded mode; production deployments verify Entra ID tokens and mint nothing.
 */
export class EmbeddedTokenIssuer {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly tenantId: string,
    private readonly issuer = 'steward-embedded',
    private readonly audience = 'api://steward',
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A signed token for `subject`, valid for `ttlSeconds` (default one hour). */
  async mint(subject: TokenSubject, ttlSeconds = 3600): Promise<string> {
    const claims: Record<string, unknown> = {
      tid: this.tenantId,
      roles: [...(subject.roles ?? [])].filter((r) => r !== 'AUTHENTICATED_USER'),
    };
    if (subject.name) claims.name = subject.name;
    if (subject.app) {
      claims.idtyp = 'app';
      claims.azp = subject.id;
      claims.oid = subject.id;
    } else {
      claims.idtyp = 'user';
      claims.oid = subject.id;
      if (subject.upn) claims.preferred_username = subject.upn;
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(subject.id)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime(`${Math.max(1, Math.floor(ttlSeconds))}s`)
      .sign(this.key);
  }
}
