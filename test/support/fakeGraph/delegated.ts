import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify, type JWTPayload, type KeyLike } from 'jose';
import { fail, oauthError, type Reply } from './protocol';
import { type ParsedRequest } from './records';
import { ChannelsApi } from './channels';

/** `grant_type` of the on-behalf-of flow (Microsoft identity platform, "OAuth 2.0 On-Behalf-Of flow"). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const GRAPH_RESOURCE = 'https://graph.microsoft.com';

/** Who signs people's tokens for Steward's API, so that the on-behalf-of grant can verify an assertion. */
export interface SignInTrust {
  issuer: string;
  /** The key that verifies them (an RS256 public key). */
  key: KeyLike;
  /** The API app registration's Application ID URI (the `aud` of people's tokens), besides its client id. */
  applicationIdUri?: string;
}

/** The claims of an access token for Graph that tell an app-only token from a delegated one. */
export interface GraphTokenClaims extends JWTPayload {
  idtyp: 'app' | 'user';
  appid: string;
  /** Delegated tokens: the person. */
  oid?: string;
  /** Delegated tokens: the delegated permissions, space-separated. App-only tokens have none. */
  scp?: string;
  /** App-only tokens: the application permissions. */
  roles?: string[];
  /** Delegated tokens: the template ids of the person's Microsoft Entra roles. */
  wids?: string[];
}

/**
 * Entra ID's tokens for Graph and the delegated ones it gives on a person's behalf:
 *
 * - Graph tokens are JWTs whose claims say what Graph reads from a real one
 *   (`concepts/permissions-overview.md`, access token claims): an app-only token carries `roles`
 *   and `idtyp: app`, a delegated token `scp`, the person's `oid` and `idtyp: user`.
 * - The on-behalf-of grant (Microsoft identity platform, "OAuth 2.0 On-Behalf-Of flow"): with
 *   `offline_access` in the scope its answer carries a `refresh_token` ("The refresh token is
 *   only provided if the offline_access scope was requested").
 * - The refresh-token grant (`grant_type=refresh_token`, "Refresh the access token" of the
 *   authorization code flow page): a confidential client with its secret redeems the refresh token
 *   for a new access token of the same person and permissions, and a new refresh token ("Refresh
 *   tokens replace themselves with a fresh token upon every use"; the old one is not revoked). A
 *   refresh token lives 90 days ("Refresh tokens": "90 days for all other scenarios"); one this
 *   fake never issued, or issued to another client, is `invalid_grant` (AADSTS9002313 /
 *   AADSTS700005).
 * - An access token lives about an hour; `expireDelegatedTokens()` makes every delegated token
 *   issued so far lapse (as the days of an approval would), and Graph then answers it 401
 *   `InvalidAuthenticationToken`, "Lifetime validation failed, the token is expired."
 * - Who may update a group with a delegated token: see `delegatedRefusal`.
 */
export abstract class DelegatedIdentity extends ChannelsApi {
  tokensIssued = 0;

  protected readonly tokens = new Set<string>();

  /** Every on-behalf-of request, answered or refused (its form without the secret and the assertion). */
  readonly onBehalfOfRequests: Array<{ clientId: string; scope: string; outcome: string }> = [];

  /** The delegated permissions of Steward's API app that the tenant consented to (admin consent). */
  readonly delegatedConsent = new Set<string>(['Group.ReadWrite.All']);

  /**
   * People who hold a Microsoft Entra role that lets them change any group (Groups Administrator):
   * with a delegated token they may update groups they do not own.
   */
  readonly groupAdministrators = new Set<string>();

  /** Who signs the tokens people call Steward's API with (none: no assertion verifies). */
  signInTrust: SignInTrust | undefined;

  private readonly tokenKey = randomBytes(32);

  /** The claims of a token this fake issued (it has checked the token is one of its own first). */
  tokenClaims(token: string): GraphTokenClaims {
    return decodeJwt(token) as GraphTokenClaims;
  }

  /** A signed JWT with `claims`, recorded as issued. */
  protected issueToken(claims: Omit<GraphTokenClaims, 'iat' | 'exp' | 'tid' | 'aud' | 'iss'>): string {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
      ...claims,
      aud: GRAPH_RESOURCE,
      iss: `https://sts.windows.net/${this.tenantId}/`,
      tid: this.tenantId,
      iat: now,
      nbf: now,
      exp: now + 3599,
      uti: randomUUID(),
    })}`;
    const token = `${body}.${createHmac('sha256', this.tokenKey).update(body).digest('base64url')}`;
    this.tokens.add(token);
    this.tokensIssued++;
    return token;
  }
  /**
   * A person's delegated token for Graph, as an administrator gets one (`az account
   * get-access-token --resource-type ms-graph`): `scp` the delegated permissions, `wids` the
   * template ids of the person's Microsoft Entra roles (`ENTRA_ROLES`).
   */
  issueDelegatedToken(person: { oid: string; scp: string[]; wids?: string[] }): string {
    return this.issueToken({
      idtyp: 'user',
      appid: '04b07795-8ddb-461a-bbee-02f9e1bf7b46',
      oid: person.oid,
      scp: person.scp.join(' '),
      wids: person.wids ?? [],
    });
  }

  protected readonly botTokens = new Set<string>();

  /** Forgets every token issued so far (as a rotated secret or revoked consent would). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** Refresh tokens issued, with the person and permissions they renew (never expire in a test's time). */
  private readonly refreshTokens = new Map<
    string,
    { oid: string; scp: string; clientId: string; until: number }
  >();

  /** Every refresh-token grant answered (its outcome only). */
  readonly refreshRequests: string[] = [];

  /** Delegated access tokens that have lapsed: Graph answers them 401. */
  protected readonly lapsedTokens = new Set<string>();

  /** Makes every delegated access token issued so far lapse, as an hour (or days) passing would. */
  expireDelegatedTokens(): void {
    for (const token of this.tokens)
      if (this.tokenClaims(token).idtyp === 'user') this.lapsedTokens.add(token);
  }

  /** A refresh token for `oid`'s delegated permissions `scp`, issued to `clientId`. */
  private issueRefreshToken(oid: string, scp: string, clientId: string): string {
    const token = `fake-refresh-${randomBytes(24).toString('base64url')}`;
    this.refreshTokens.set(token, { oid, scp, clientId, until: Date.now() + 90 * 24 * 3600 * 1000 });
    return token;
  }

  /**
   * The on-behalf-of grant ("Middle-tier access token request"): a confidential client (secret)
   * sends `assertion`, the access token a person called it with, whose `aud` must be that client;
   * only a person's token can be exchanged ("the OBO flow only works for user principals"); each
   * delegated permission asked for must have been consented to, else `invalid_grant` with
   * AADSTS65001. The answer is a delegated token for Graph with `scp`.
   */
  protected async onBehalfOf(form: Record<string, string>): Promise<Reply> {
    const record = (outcome: string, reply: Reply): Reply => {
      this.onBehalfOfRequests.push({ clientId: form.client_id ?? '', scope: form.scope ?? '', outcome });
      return reply;
    };
    const refuse = (status: number, error: string, description: string) =>
      record(description, { status, body: oauthError(error, description) });
    if (form.client_id !== this.clientId) return refuse(400, 'unauthorized_client', 'AADSTS700016');
    if (form.client_secret !== this.clientSecret)
      return refuse(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
    if (!form.assertion || !form.scope)
      return refuse(
        400,
        'invalid_request',
        "AADSTS900144: The request body must contain 'assertion' and 'scope'.",
      );
    const trust = this.signInTrust;
    let claims: JWTPayload;
    try {
      if (!trust) throw new Error('no signing key');
      claims = (await jwtVerify(form.assertion, trust.key, { issuer: trust.issuer, algorithms: ['RS256'] }))
        .payload;
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      return refuse(
        400,
        'invalid_grant',
        expired
          ? 'AADSTS500133: Assertion is not within its valid time range.'
          : 'AADSTS50013: Assertion failed signature validation.',
      );
    }
    const audiences = [this.clientId, trust.applicationIdUri].filter(Boolean);
    if (!audiences.includes(String(claims.aud)))
      return refuse(
        400,
        'invalid_grant',
        'AADSTS50013: Assertion audience does not match the Client app presenting the assertion.',
      );
    if (claims.idtyp === 'app' || typeof claims.oid !== 'string')
      return refuse(400, 'invalid_grant', 'AADSTS50013: An on-behalf-of assertion must be a user token.');
    // msal adds openid, profile and offline_access; the rest name Graph's delegated permissions.
    const asked = form.scope.split(' ').filter((s) => s.startsWith(`${GRAPH_RESOURCE}/`));
    const permissions = asked.map((s) => s.slice(GRAPH_RESOURCE.length + 1));
    if (permissions.length === 0 || permissions.some((p) => p === '.default'))
      return refuse(
        400,
        'invalid_scope',
        'AADSTS70011: The provided value for the input parameter scope is not valid.',
      );
    const missing = permissions.filter((p) => !this.delegatedConsent.has(p));
    if (missing.length > 0) {
      return refuse(
        400,
        'invalid_grant',
        `AADSTS65001: The user or administrator has not consented to use the application with ID '${this.clientId}'. Send an interactive authorization request for this user and resource.`,
      );
    }
    const token = this.issueToken({
      idtyp: 'user',
      appid: this.clientId,
      oid: claims.oid,
      scp: permissions.join(' '),
    });
    const offline = form.scope.split(' ').includes('offline_access');
    return record('issued', {
      status: 200,
      body: {
        token_type: 'Bearer',
        scope: asked.join(' '),
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: token,
        ...(offline
          ? { refresh_token: this.issueRefreshToken(claims.oid, permissions.join(' '), this.clientId) }
          : {}),
      },
    });
  }

  /**
   * The refresh-token grant: the client's own secret, a refresh token it was issued, and scopes
   * within the permissions that token renews; the answer is a delegated token for the same person
   * and a new refresh token.
   */
  protected refreshGrant(form: Record<string, string>): Reply {
    const refuse = (status: number, error: string, description: string): Reply => {
      this.refreshRequests.push(description);
      return { status, body: oauthError(error, description) };
    };
    if (form.client_id !== this.clientId) return refuse(400, 'unauthorized_client', 'AADSTS700016');
    if (form.client_secret !== this.clientSecret)
      return refuse(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
    const kept = this.refreshTokens.get(form.refresh_token ?? '');
    if (!kept || kept.until <= Date.now())
      return refuse(400, 'invalid_grant', 'AADSTS9002313: Invalid request. Request is malformed or invalid.');
    if (kept.clientId !== form.client_id)
      return refuse(
        400,
        'invalid_grant',
        'AADSTS700005: Provided Authorization Code is intended to use against other tenant.',
      );
    const asked = (form.scope ?? '').split(' ').filter((s) => s.startsWith(`${GRAPH_RESOURCE}/`));
    const permissions = asked.map((s) => s.slice(GRAPH_RESOURCE.length + 1));
    const held = kept.scp.split(' ');
    if (permissions.length === 0 || permissions.some((p) => !held.includes(p)))
      return refuse(
        400,
        'invalid_scope',
        'AADSTS70011: The provided value for the input parameter scope is not valid.',
      );
    this.refreshRequests.push('issued');
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        scope: asked.join(' '),
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: this.issueToken({ idtyp: 'user', appid: this.clientId, oid: kept.oid, scp: kept.scp }),
        refresh_token: this.issueRefreshToken(kept.oid, kept.scp, kept.clientId),
      },
    };
  }

  /**
   * What Graph says to a delegated token on `path`: the fake knows one delegated operation, a
   * group's update (`api/group-update.md`: delegated `Group.ReadWrite.All`, and "Application
   * permissions are not supported when updating assignedLabels"). A person may change only a group
   * they own (`api/group-post-owners.md`: the owners "are allowed to modify the group object") or
   * hold an Entra role that manages groups (`groupAdministrators`: Groups Administrator, "Members
   * of this role can create/manage groups"); anyone else gets 403 `Authorization_RequestDenied`,
   * "Insufficient privileges to complete the operation." Anything else is refused as Graph refuses
   * a token without the permission. Undefined: go on.
   */
  protected delegatedRefusal(
    request: ParsedRequest,
    path: string,
    claims: GraphTokenClaims,
  ): Reply | undefined {
    // An administrator's calls: their handlers check the token's delegated permissions and roles.
    if (/^\/(servicePrincipals|appCatalogs)[/(]/.test(path)) return undefined;
    const group = /^\/groups\/([^/()]+)$/.exec(path)?.[1];
    const scopes = (claims.scp ?? '').split(' ');
    if (request.method !== 'PATCH' || group === undefined)
      return fail(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (!scopes.includes('Group.ReadWrite.All') && !scopes.includes('Directory.ReadWrite.All'))
      return fail(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    const record = this.groups.get(group);
    if (record && !record.ownerIds.has(claims.oid ?? '') && !this.groupAdministrators.has(claims.oid ?? ''))
      return fail(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    return undefined;
  }
}
