import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify, type JWTPayload, type KeyLike } from 'jose';
import { fail, oauthError, type Reply } from './protocol';
import { type ParsedRequest } from './records';
import { ChannelsApi } from './channels';

/** `grant_type` of the on-behalf-of flow (Microsoft identity platform, "OAuth 2.0 On-Behalf-Of flow"). */
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
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
 * Entra ID's token endpoint (Graph's app and the bot, and the on-behalf-of grant) and the Bot
 * Connector's conversations. Graph tokens are JWTs whose claims say what Graph reads from a real
 * one (`concepts/permissions-overview.md`, access token claims): an app-only token carries `roles`
 * and `idtyp: app`, a delegated token `scp`, the person's `oid` and `idtyp: user`.
 */
export abstract class IdentityApi extends ChannelsApi {
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

  protected async entra(method: string, url: URL, form: Record<string, string>): Promise<Reply> {
    const match = /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token)$/.exec(
      url.pathname,
    );
    if (!match || match[1] !== this.tenantId)
      return { status: 400, body: oauthError('invalid_tenant', 'AADSTS90002') };
    const base = `${this.origin}/${this.tenantId}`;
    if (method === 'GET' && match[2]?.startsWith('v2.0')) {
      return {
        status: 200,
        body: {
          token_endpoint: `${base}/oauth2/v2.0/token`,
          authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
          end_session_endpoint: `${base}/oauth2/v2.0/logout`,
          jwks_uri: `${base}/discovery/v2.0/keys`,
          issuer: `${base}/v2.0`,
          token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
        },
      };
    }
    if (method !== 'POST') return { status: 405, body: oauthError('invalid_request', 'method') };
    if (form.grant_type === JWT_BEARER && form.requested_token_use === 'on_behalf_of')
      return this.onBehalfOf(form);
    if (form.grant_type !== 'client_credentials')
      return { status: 400, body: oauthError('unsupported_grant_type', '') };
    const bot = this.options.bot;
    if (bot && form.client_id === bot.appId) return this.botToken(form, bot.secret);
    if (form.client_id !== this.clientId)
      return { status: 400, body: oauthError('unauthorized_client', 'AADSTS700016') };
    if (form.client_secret !== this.clientSecret) {
      return {
        status: 401,
        body: oauthError('invalid_client', 'AADSTS7000215: Invalid client secret provided.'),
      };
    }
    if (!(form.scope ?? '').split(' ').includes('https://graph.microsoft.com/.default')) {
      return { status: 400, body: oauthError('invalid_scope', 'AADSTS1002012') };
    }
    const token = this.issueToken({ idtyp: 'app', appid: this.clientId, roles: [...this.granted] });
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token },
    };
  }

  /**
   * The on-behalf-of grant ("Middle-tier access token request"): a confidential client (secret)
   * sends `assertion`, the access token a person called it with, whose `aud` must be that client;
   * only a person's token can be exchanged ("the OBO flow only works for user principals"); each
   * delegated permission asked for must have been consented to, else `invalid_grant` with
   * AADSTS65001. The answer is a delegated token for Graph with `scp`.
   */
  private async onBehalfOf(form: Record<string, string>): Promise<Reply> {
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
    return record('issued', {
      status: 200,
      body: {
        token_type: 'Bearer',
        scope: asked.join(' '),
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: token,
      },
    });
  }

  /**
   * What Graph says to a delegated token on `path`: the fake knows one delegated operation, a
   * group's update (`api/group-update.md`: `Group.ReadWrite.All`; the person must own the group or
   * hold a role that manages groups). Anything else is refused as Graph refuses a token without the
   * permission. Undefined: go on.
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

  protected botToken(form: Record<string, string>, secret: string): Reply {
    if (form.client_secret !== secret) {
      return {
        status: 401,
        body: oauthError('invalid_client', 'AADSTS7000215: Invalid client secret provided.'),
      };
    }
    if (form.scope !== 'https://api.botframework.com/.default') {
      return { status: 400, body: oauthError('invalid_scope', 'AADSTS1002012') };
    }
    const token = `fake-bot-token-${randomBytes(24).toString('hex')}`;
    this.botTokens.add(token);
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token },
    };
  }

  /**
   * The Bot Connector's "create conversation" in a channel (`POST /v3/conversations` with
   * `channelData.channel.id`): only with a token of the bot's own registration, and only in a team
   * where the bot's app is installed.
   */
  protected connector(request: ParsedRequest): Reply {
    const bot = this.options.bot;
    const auth = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!bot || !auth || !this.botTokens.has(auth[1] ?? '')) {
      return { status: 401, body: { message: 'Authorization has been denied for this request.' } };
    }
    if (request.method !== 'POST' || request.url.pathname !== '/botframework/v3/conversations') {
      return { status: 404, body: { error: { code: 'NotFound', message: request.url.pathname } } };
    }
    const body = request.body as {
      channelData?: { channel?: { id?: string } };
      activity?: { type?: string; text?: string };
      bot?: { id?: string };
    };
    const channelId = body.channelData?.channel?.id ?? '';
    const team = [...this.teams.values()].find((t) => t.channels.some((c) => c.id === channelId));
    const app = this.stewardApp();
    if (!team || !app || !team.installedApps.has(String(app.id))) {
      return {
        status: 403,
        body: {
          error: {
            code: 'BotNotInConversationRoster',
            message: 'The bot is not part of the conversation roster.',
          },
        },
      };
    }
    if (body.bot?.id !== `28:${bot.appId}` || body.activity?.type !== 'message' || !body.activity.text) {
      return {
        status: 400,
        body: { error: { code: 'BadArgument', message: 'A message activity from the bot is required.' } },
      };
    }
    const channel = team.channels.find((c) => c.id === channelId)!;
    const id = String(Date.now());
    channel.messages.push({ id, contentType: 'text', content: body.activity.text, from: `28:${bot.appId}` });
    return { status: 201, body: { id: `${channelId};messageid=${id}`, activityId: id } };
  }
}
