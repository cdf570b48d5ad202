import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { REPORT_PARAMETERS, type ReportParameters, type ReportType } from '../../domain/reports/catalogue';

/**
 * The token of a report page URL: `/reports/{type}/{id}?token=<payload>.<signature>`.
 *
 * - `payload` is base64url of the JSON `{v: 1, tid, type, id, params, exp}` — the tenant, the report,
 *   its parameter values (keys sorted) and the expiry in Unix seconds;
 * - `signature` is base64url of HMAC-SHA256 over `"steward-report-url." + payload`, under a key
 *   derived with HKDF-SHA256 from the deployment secret and a label used for nothing else.
 *
 * Verification checks the signature first (in constant time) and only then reads the payload, so a
 * tampered token says nothing about why it is wrong.
 */

/** How long a report URL works: 10 minutes. */
export const REPORT_URL_TTL_SECONDS = 600;

const HKDF_SALT = 'steward';
const HKDF_INFO = 'steward/report-page-urls/v1';
const SIGNING_PREFIX = 'steward-report-url.';
/** Longer tokens are refused before any work: real ones are a few hundred characters. */
const MAX_TOKEN_LENGTH = 4096;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

/** What a report URL grants: one report of one tenant, with fixed parameters, until `exp`. */
export interface ReportGrant {
  tenantId: string;
  type: ReportType;
  id: string;
  params: ReportParameters;
  /** Expiry, Unix seconds. */
  exp: number;
}

/** Why a token was refused: `invalid` covers malformed and tampered alike. */
export type ReportTokenCheck =
  | { ok: true; grant: ReportGrant }
  | { ok: false; reason: 'invalid' | 'expired' | 'other-report' };

/** The 32-byte key that signs report URLs, derived from `secret` (never used raw). */
export function deriveReportUrlKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, 32));
}

/** The token for `grant`, signed with `key`. */
export function signReportGrant(key: Buffer, grant: ReportGrant): string {
  const params: Record<string, string> = {};
  for (const name of [...REPORT_PARAMETERS].sort()) {
    const value = grant.params[name];
    if (value !== undefined) params[name] = value;
  }
  const json = JSON.stringify({
    v: 1,
    tid: grant.tenantId,
    type: grant.type,
    id: grant.id,
    params,
    exp: grant.exp,
  });
  const payload = Buffer.from(json, 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * Checks a token against the report the URL names, the tenant this deployment serves and the
 * clock (`nowSeconds`, Unix seconds).
 */
export function verifyReportToken(
  key: Buffer,
  token: string,
  expected: { tenantId: string; type: string; id: string },
  nowSeconds: number,
): ReportTokenCheck {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid' };
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, payload, signature] = match as unknown as [string, string, string];
  // Compared as text, so that a signature differing only in base64's unused trailing bits is refused too.
  const given = Buffer.from(signature, 'ascii');
  const wanted = Buffer.from(mac(key, payload).toString('base64url'), 'ascii');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    return { ok: false, reason: 'invalid' };
  const grant = parseGrant(Buffer.from(payload, 'base64url').toString('utf8'));
  // Signed by us but not in our shape: only a key shared with another format could do that.
  if (!grant) return { ok: false, reason: 'invalid' };
  if (grant.tenantId !== expected.tenantId || grant.type !== expected.type || grant.id !== expected.id) {
    return { ok: false, reason: 'other-report' };
  }
  if (!(nowSeconds < grant.exp)) return { ok: false, reason: 'expired' };
  return { ok: true, grant };
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key)
    .update(SIGNING_PREFIX + payload, 'utf8')
    .digest();
}

function parseGrant(json: string): ReportGrant | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, tid, type, id, params, exp } = value as Record<string, unknown>;
  if (v !== 1 || typeof tid !== 'string' || typeof id !== 'string' || typeof exp !== 'number')
    return undefined;
  if (type !== 'dashboard' && type !== 'question') return undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const known: ReportParameters = {};
  for (const [name, given] of Object.entries(params)) {
    if (!(REPORT_PARAMETERS as readonly string[]).includes(name) || typeof given !== 'string')
      return undefined;
    known[name as keyof ReportParameters] = given;
  }
  return { tenantId: tid, type, id, params: known, exp };
}
