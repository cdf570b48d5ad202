import { randomBytes } from 'node:crypto';
import { oauthError, type Reply } from './protocol';
import { type ParsedRequest } from './records';
import { DelegatedIdentity, JWT_BEARER } from './delegated';

export type { GraphTokenClaims, SignInTrust } from './delegated';

/**
 * Entra ID's token endpoint (Graph's app and the bot; the on-behalf-of and refresh-token grants,
 * with the tokens they give, are in `delegated.ts`) and the Bot Connector's conversations.
 */
export abstract class IdentityApi extends DelegatedIdentity {
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
    if (form.grant_type === 'refresh_token') return this.refreshGrant(form);
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
