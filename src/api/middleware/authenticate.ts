import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Config } from '../../config';
import type { Caller } from '../../domain/caller';
import { Unauthorized } from '../../domain/errors';
import { callerFromClaims } from '../../domain/identity';
import { BoundedCache } from '../../domain/boundedCache';

/** Verifies a bearer token and says who is calling. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Omit<Caller, 'privileged'>>;
}

/**
 * Bearer-token authentication for the configured issuer: the embedded HS256 issuer, or Entra ID
 * (RS256 only, keys from JWKS). `alg: none` and any algorithm but the expected one are refused.
 *
 * @example
 * const auth = createAuthenticator(config.auth, config.tenantId);
 * const caller = await auth.authenticate(req.headers.authorization);
 */
export function createAuthenticator(auth: Config['auth'], tenantId: string): Authenticator {
  const verify = verifierFor(auth);
  const verified = new VerifiedTokens();
  return {
    async authenticate(authorization) {
      const match = /^Bearer ([A-Za-z0-9_\-.=+/]{1,8192})$/.exec(authorization?.trim() ?? '');
      if (!match) throw new Unauthorized('A bearer token is required (Authorization: Bearer <token>).');
      const token = match[1]!;
      const known = verified.get(token);
      if (known) return known;
      let payload: JWTPayload;
      try {
        payload = await verify(token);
      } catch (error) {
        throw new Unauthorized(reasonOf(error));
      }
      const caller = callerFromClaims(payload, tenantId);
      verified.add(token, caller, payload.exp);
      return caller;
    },
  };
}

const VERIFIED_TOKEN_LIMIT = 5000;

/**
 * Tokens that verified, by their exact text, until they expire: a client sends the same token for
 * an hour, and checking a signature costs more than the rest of a simple read. Only successes are
 * kept; the oldest entry goes first when full.
 */
class VerifiedTokens {
  private readonly entries = new BoundedCache<string, Omit<Caller, 'privileged'>>(VERIFIED_TOKEN_LIMIT);

  get(token: string): Omit<Caller, 'privileged'> | undefined {
    return this.entries.get(token);
  }

  add(token: string, caller: Omit<Caller, 'privileged'>, exp: number | undefined): void {
    if (exp !== undefined) this.entries.set(token, caller, exp * 1000);
  }
}

function verifierFor(auth: Config['auth']): (token: string) => Promise<JWTPayload> {
  const options = {
    issuer: auth.issuer,
    audience: auth.audience,
    requiredClaims: ['exp'],
    clockTolerance: 60,
  };
  if (auth.mode === 'embedded') {
    const key = new TextEncoder().encode(auth.secret);
    return async (token) => (await jwtVerify(token, key, { ...options, algorithms: ['HS256'] })).payload;
  }
  const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(auth.jwksUri), { timeoutDuration: 5000 });
  return async (token) => (await jwtVerify(token, jwks, { ...options, algorithms: ['RS256'] })).payload;
}

/** A reason safe to show: what was wrong with the token, never the token itself. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The token has expired.';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `The token's "${(error as { claim?: string }).claim ?? 'claims'}" claim is not accepted.`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The token signature does not verify.';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The token is signed with an algorithm this service does not accept.';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'No signing key matches the token.';
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JOSE_GENERIC':
      return 'The signing keys could not be fetched to verify the token.';
    default:
      return 'The token is malformed or cannot be verified.';
  }
}
