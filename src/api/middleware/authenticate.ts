import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Config } from '../../config';
import type { Caller } from '../../domain/caller';
import { Unauthorized } from '../../domain/errors';
import { callerFromClaims } from '../../domain/identity';
import { BoundedCache } from '../../lib/boundedCache';

/** Verifies a bearer token and says who is calling. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Omit<Caller, 'privileged'>>;
}

/** Who the directory knows: `true` when `id` is the object id of a person in it. */
export type PersonCheck = (id: string) => Promise<boolean>;

/**
 * The longest an embedded token may live, from `iat` to `exp` and from `iat` to now: a week, the
 * most `npm run token --ttl` mints, so a leaked token cannot be made to last for years.
 */
export const EMBEDDED_TOKEN_MAX_LIFETIME_SECONDS = 7 * 24 * 3600;

/**
 * Bearer-token authentication for the configured issuer: the embedded HS256 issuer, or Entra ID
 * (RS256 only, keys from JWKS). `alg: none` and any algorithm but the expected one are refused.
 * A user token must name a person of the directory (`isPerson`): a valid signature for an object
 * id nobody has is a 401, so nothing is ever done in the name of someone who does not exist.
 *
 * @example
 * const auth = createAuthenticator(config.auth, config.tenantId, (id) => directory.isPerson(id));
 * const caller = await auth.authenticate(req.headers.authorization);
 */
export function createAuthenticator(
  auth: Config['auth'],
  tenantId: string,
  isPerson: PersonCheck,
): Authenticator {
  const verify = verifierFor(auth);
  const verified = new VerifiedTokens();
  return {
    async authenticate(authorization) {
      const token = bearerTokenOf(authorization);
      let caller = verified.get(token);
      if (!caller) {
        let payload: JWTPayload;
        try {
          payload = await verify(token);
        } catch (error) {
          throw new Unauthorized(reasonOf(error));
        }
        caller = callerFromClaims(payload, tenantId);
        verified.add(token, caller, payload.exp);
      }
      // Checked on every call (the check caches), so someone removed from the directory loses access.
      if (caller.kind === 'user' && !(await isPerson(caller.id)))
        throw new Unauthorized('The token names nobody in the directory.');
      return caller;
    },
  };
}

/**
 * The token of an `Authorization: Bearer …` header. The scheme is case-insensitive (RFC 7235);
 * no header at all is a 401 without an error code (RFC 6750 §3.1), any other header is
 * `invalid_request`.
 */
export function bearerTokenOf(authorization: string | undefined): string {
  const known = authorization === undefined ? undefined : wellFormed.get(authorization);
  if (known !== undefined) return known;
  const token = parseBearer(authorization);
  wellFormed.set(authorization!, token);
  return token;
}

/**
 * Authorization headers already found well-formed, with their token: a client sends the same header
 * for an hour, and the canonical-spelling check decodes every part. Only the header's form is kept:
 * the token is still verified, or found verified and unexpired, on every call.
 */
const wellFormed = new BoundedCache<string, string>(5000);

function parseBearer(authorization: string | undefined): string {
  const value = authorization?.trim() ?? '';
  if (value === '')
    throw new Unauthorized('A bearer token is required (Authorization: Bearer <token>).', 'none');
  const match = /^Bearer +([A-Za-z0-9_\-.=+/]{1,8192})$/i.exec(value);
  if (!match)
    throw new Unauthorized(
      'The Authorization header is not a bearer token (Authorization: Bearer <token>).',
      'invalid_request',
    );
  const token = match[1]!;
  if (!isCompactJws(token)) throw new Unauthorized(MALFORMED);
  return token;
}

const MALFORMED = 'The token is malformed or cannot be verified.';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * True when `token` is a JWS in compact serialisation (RFC 7515 §7.1): three base64url parts
 * without padding (§2), each in its one canonical spelling. Decoders forgive `=` and the spare
 * bits of a last character, so without this check one signed token has many accepted spellings.
 */
function isCompactJws(token: string): boolean {
  const parts = token.split('.');
  return (
    parts.length === 3 &&
    parts.every(
      (part) => BASE64URL.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part,
    )
  );
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
    const hmacKey = createSecretKey(key);
    return async (token) => {
      if (!hs256SignatureMatches(token, hmacKey)) throw new SignatureMismatch();
      const { payload } = await jwtVerify(token, key, {
        ...options,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat'],
        maxTokenAge: EMBEDDED_TOKEN_MAX_LIFETIME_SECONDS,
      });
      if (payload.exp! - payload.iat! > EMBEDDED_TOKEN_MAX_LIFETIME_SECONDS) throw new TokenTooLong();
      return payload;
    };
  }
  const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(auth.jwksUri), { timeoutDuration: 5000 });
  return async (token) => (await jwtVerify(token, jwks, { ...options, algorithms: ['RS256'] })).payload;
}

/**
 * False when `token` says HS256 and its signature is not the HMAC of its first two parts: a forged
 * token, told apart in a few microseconds (one HMAC, compared in constant time). A flood of forged
 * tokens with fresh signatures misses every cache; jose's full check of each one costs several
 * times more (bench/RESULTS.md, "refusal flood"). Any other `alg` is left to jose, which refuses it
 * with its own reason; a matching signature is verified again by jose with the claims.
 */
function hs256SignatureMatches(token: string, key: KeyObject): boolean {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  let alg: unknown;
  try {
    alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
  } catch {
    return true; // not JSON: jose says why
  }
  if (alg !== 'HS256') return true;
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** An HS256 token whose signature is not ours (jose's code, so the reason is the same). */
class SignatureMismatch extends Error {
  readonly code = 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED';
}

/** An embedded token whose `exp` is further from its `iat` than the maximum lifetime. */
class TokenTooLong extends Error {
  readonly code = 'ERR_TOKEN_TOO_LONG';
}

/** A reason safe to show: what was wrong with the token, never the token itself. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  const { claim, reason } = error as { claim?: string; reason?: string };
  if (claim === 'iat' && reason === 'missing') return 'The token has no "iat" (issued at) claim.';
  if (code === 'ERR_TOKEN_TOO_LONG' || claim === 'iat')
    return `The token lives longer than the ${EMBEDDED_TOKEN_MAX_LIFETIME_SECONDS / 3600} hours allowed, or was issued in the future.`;
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
      return MALFORMED;
  }
}
