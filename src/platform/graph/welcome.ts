import { type Dispatcher, request } from 'undici';
import { NotFound } from '../../domain/errors';
import type { WelcomeOutcome } from '../port';
import { PlatformBusy, PlatformError } from '../port';
import type { GraphClient } from './client';
import { segment } from './paths';
import type { GraphChannel } from './mapping';
import type { AppInstall } from './payloads';
import type { Binds } from './binds';
import type { TokenSource } from './token';

/** The scope of Bot Connector tokens (client credentials of the bot's app registration). */
export const BOT_CONNECTOR_SCOPE = 'https://api.botframework.com/.default';

/** How the welcome message reaches a new team as Steward's bot; absent parts make the step skip. */
export interface WelcomeDelivery {
  /**
   * The `id` of Steward's Teams app manifest (`STEWARD_TEAMS_APP_ID`, by default the bot's app id as
   * in `npm run manifest`): the catalog knows an organisation's app by it as `externalId`.
   */
  teamsAppId?: string;
  /** The bot's app id (`MicrosoftAppId`); the connector knows the bot as `28:{id}`. */
  botAppId?: string;
  /** Bot Connector tokens for the bot's app registration. */
  botTokens?: TokenSource;
  /** The Bot Connector's base URL for the tenant (the cloud's by default; none documented in China). */
  serviceUrl?: string;
  /** The tenant the team belongs to. */
  tenantId: string;
}

/** How an administrator puts Steward's app in the organisation's catalog (a reason names it). */
const PUBLISH_HINT =
  'publish it to the organisation\'s app catalog (`npm run admin -- publish-app`, or the Teams admin center; docs/guides/deploying.md, "Administrator\'s path")';

/**
 * The welcome message, delivered as Steward's bot. Graph lets an app post channel messages with
 * its own (app-only) token only while migrating (`api/channel-post-messages.md`), so the adapter
 * never does: it installs Steward's Teams app in the team (`POST /teams/{id}/installedApps`,
 * `api/team-post-installedapps.md`), then the bot starts a conversation in General through the Bot
 * Connector (Teams' "Send proactive messages": the app must be installed in the team first).
 * The install names the app by its catalog id, which for an organisation's app is not the
 * manifest's id (`api/appcatalogs-list-teamsapps.md`, the note and Example 3): it is found once per
 * process with `$filter=externalId eq '{manifest id}'` (application permission
 * `AppCatalog.Read.All`). Anything missing or refused on the way skips the welcome with the
 * reason; it never fails a job.
 */
export class WelcomeMessenger {
  constructor(
    private readonly client: GraphClient,
    private readonly binds: Binds,
    private readonly delivery: WelcomeDelivery,
    private readonly dispatcher: Dispatcher,
  ) {}

  /** The app's catalog id once found; a miss is looked up again (the app may be published since). */
  private catalogId: string | undefined;

  /**
   * Installs the bot in the team and posts `text` in General (read from Graph unless the caller
   * knows its id); skipped with a reason when it cannot.
   */
  async welcome(teamId: string, text: string, generalChannelId?: string): Promise<WelcomeOutcome> {
    const { teamsAppId, botAppId, botTokens } = this.delivery;
    if (!teamsAppId) {
      return {
        skipped:
          "Steward's Teams app is not known: set STEWARD_TEAMS_APP_ID to its manifest id (or MicrosoftAppId, its default), so its bot can join the team.",
      };
    }
    if (!botAppId || !botTokens) {
      return { skipped: 'The bot has no app registration (MicrosoftAppId), so it cannot post in the team.' };
    }
    const serviceUrl = this.delivery.serviceUrl;
    if (!serviceUrl) {
      return {
        skipped:
          "Microsoft documents no Bot Connector address for this cloud's proactive messages; set STEWARD_BOT_SERVICE_URL.",
      };
    }
    let catalogId: string | undefined;
    try {
      catalogId = await this.findInCatalog(teamsAppId);
    } catch (error) {
      if (error instanceof PlatformBusy || !(error instanceof PlatformError)) throw error;
      return {
        skipped: `Steward's Teams app could not be looked up in the app catalog (application permission AppCatalog.Read.All): ${error.message}`,
      };
    }
    if (!catalogId) {
      return {
        skipped: `Steward's Teams app (manifest id ${teamsAppId}) is not in the organisation's app catalog: ${PUBLISH_HINT}.`,
      };
    }
    try {
      await this.install(teamId, catalogId);
      const general =
        generalChannelId ??
        (await this.client.get<GraphChannel>(`/teams/${segment(teamId)}/primaryChannel?$select=id`)).id;
      await this.post(serviceUrl, general, botAppId, botTokens, text);
    } catch (error) {
      // NotFound (an app not in the catalog, a team gone) is the domain's error, not a PlatformError.
      // A budget that is spent is a wait, not a reason to skip the welcome: the job parks.
      if (error instanceof PlatformBusy) throw error;
      if (!(error instanceof PlatformError || error instanceof NotFound)) throw error;
      return { skipped: `The welcome message could not be delivered: ${error.message}` };
    }
    return { posted: 'Posted the welcome message in General as the bot.' };
  }

  /** The catalog id of the organisation's app whose manifest id is `manifestId`, if it is published. */
  private async findInCatalog(manifestId: string): Promise<string | undefined> {
    if (this.catalogId) return this.catalogId;
    const filter = `externalId eq '${manifestId.replace(/'/g, "''")}'`;
    const found = await this.client.get<{ value: Array<{ id: string }> }>(
      `/appCatalogs/teamsApps?$filter=${encodeURIComponent(filter)}&$select=id`,
    );
    this.catalogId = found.value[0]?.id;
    return this.catalogId;
  }

  private async install(teamId: string, teamsAppId: string): Promise<void> {
    try {
      await this.client.send({
        method: 'POST',
        path: `/teams/${segment(teamId)}/installedApps`,
        body: { 'teamsApp@odata.bind': this.binds.app(teamsAppId) } satisfies AppInstall,
      });
    } catch (error) {
      // 409: installed already (by an earlier attempt of the same job, or by a policy).
      if (!(error instanceof PlatformError && error.status === 409)) throw error;
    }
  }

  private async post(
    serviceUrl: string,
    channelId: string,
    botAppId: string,
    tokens: TokenSource,
    text: string,
  ): Promise<void> {
    const base = serviceUrl.replace(/\/+$/, '');
    const token = await tokens.getToken();
    const sent = request(`${base}/v3/conversations`, {
      method: 'POST',
      dispatcher: this.dispatcher,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        isGroup: true,
        bot: { id: `28:${botAppId}` },
        tenantId: this.delivery.tenantId,
        channelData: { channel: { id: channelId }, tenant: { id: this.delivery.tenantId } },
        activity: { type: 'message', text, textFormat: 'plain' },
      }),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const response = await sent.catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      throw new PlatformError(
        `the Bot Connector was not reachable (${typeof code === 'string' ? code : 'network error'})`,
        0,
        true,
      );
    });
    const answer = await response.body.text();
    if (response.statusCode >= 300) {
      const code = /"code"\s*:\s*"([^"]{1,80})"/.exec(answer)?.[1] ?? `http${response.statusCode}`;
      throw new PlatformError(
        `the Bot Connector answered ${response.statusCode} (${code})`,
        response.statusCode,
        false,
      );
    }
  }
}
