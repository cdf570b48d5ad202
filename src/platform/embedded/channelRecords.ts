import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Conflict, NotFound } from '../../domain/errors';
import type { TeamChannel, TeamChannelPayload, TeamChannelTab, TeamChannelTabPayload } from '../../contract';
import type { Database, PlatformChannelRow, PlatformTabRow } from '../../store/schema';
import type { Stamp } from './teamCreation';
import { lockTeam } from './teamRecords';
import {
  channelFromRow,
  FIRST_TAB_SORT_ORDER,
  newChannelId,
  TAB_SORT_ORDER_STEP,
  tabFromRow,
  requireTeam,
} from './teamRows';

/** A message of a channel, as stored (the body is HTML from the sender). */
export interface StoredMessage {
  id: string;
  body: string;
  createdDateTime: string;
}

/**
 * The embedded tenant's channels, tabs and messages as rows, each operation atomic, without the
 * latency and fault knobs of EmbeddedTeams. Unknown teams and channels throw NotFound.
 */
export class ChannelRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { publicUrl: () => string; stamp: Stamp },
  ) {}

  /** The team's channels: General first, then by creation. */
  async listChannels(teamId: string): Promise<TeamChannel[]> {
    await requireTeam(this.db, teamId);
    const rows = await this.db
      .selectFrom('platform_channels')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('is_primary', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(channelFromRow);
  }

  /** The team's General channel. */
  async primaryChannel(teamId: string): Promise<TeamChannel> {
    await requireTeam(this.db, teamId);
    const row = await this.db
      .selectFrom('platform_channels')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('is_primary', '=', 1)
      .executeTakeFirst();
    if (!row) throw new NotFound(`Team ${teamId} has no General channel.`);
    return channelFromRow(row);
  }

  /**
   * Creates a channel; Conflict when the team has one of that name, whatever its case. The team
   * row is held meanwhile, so two concurrent calls cannot both create the name.
   */
  async createChannel(teamId: string, channel: TeamChannelPayload): Promise<TeamChannel> {
    return this.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      const name = channel.displayName.trim();
      const taken = await trx
        .selectFrom('platform_channels')
        .select('id')
        .where('team_id', '=', teamId)
        .where((eb) => eb(eb.fn('lower', ['display_name']), '=', name.toLowerCase()))
        .executeTakeFirst();
      if (taken) throw new Conflict(`Team ${teamId} already has a channel named "${name}".`);
      const row: PlatformChannelRow = {
        id: newChannelId(),
        team_id: teamId,
        display_name: name,
        description: channel.description ?? null,
        membership_type: channel.membershipType ?? 'standard',
        is_primary: 0,
        created_at: this.options.stamp(),
      };
      await trx.insertInto('platform_channels').values(row).execute();
      return channelFromRow(row);
    });
  }

  /** The channel's tabs in their sort order. */
  async listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]> {
    await this.requireChannel(this.db, teamId, channelId);
    const rows = await this.db
      .selectFrom('platform_tabs')
      .selectAll()
      .where('channel_id', '=', channelId)
      .orderBy('sort_order')
      .orderBy('created_at')
      .execute();
    return rows.map((row) => tabFromRow(row, this.options.publicUrl()));
  }

  /** Adds a tab after the channel's last one (sort order 10000, 10100, …, as Teams numbers them). */
  async createTab(teamId: string, channelId: string, tab: TeamChannelTabPayload): Promise<TeamChannelTab> {
    return this.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      await this.requireChannel(trx, teamId, channelId);
      const last = await trx
        .selectFrom('platform_tabs')
        .select((eb) => eb.fn.max('sort_order').as('max'))
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      // PostgreSQL may answer an aggregate as a string; null means the channel has no tab yet.
      const max = last?.max === null || last?.max === undefined ? null : Number(last.max);
      const config = tab.configuration ?? {};
      const row: PlatformTabRow = {
        id: randomUUID(),
        team_id: teamId,
        channel_id: channelId,
        display_name: tab.displayName,
        teams_app_id: tab.teamsAppId,
        configuration: JSON.stringify({
          entityId: config.entityId ?? null,
          contentUrl: config.contentUrl ?? null,
          websiteUrl: config.websiteUrl ?? null,
          removeUrl: config.removeUrl ?? null,
        }),
        sort_order: max === null ? FIRST_TAB_SORT_ORDER : max + TAB_SORT_ORDER_STEP,
        created_at: this.options.stamp(),
      };
      await trx.insertInto('platform_tabs').values(row).execute();
      return tabFromRow(row, this.options.publicUrl());
    });
  }

  /** Stores a message (HTML, as sent) in the channel. */
  async postMessage(teamId: string, channelId: string, html: string): Promise<void> {
    await this.requireChannel(this.db, teamId, channelId);
    await this.db
      .insertInto('platform_messages')
      .values({
        id: randomUUID(),
        team_id: teamId,
        channel_id: channelId,
        body: html,
        created_at: this.options.stamp(),
      })
      .execute();
  }

  /** The channel's messages, oldest first. */
  async listMessages(teamId: string, channelId: string): Promise<StoredMessage[]> {
    await this.requireChannel(this.db, teamId, channelId);
    const rows = await this.db
      .selectFrom('platform_messages')
      .select(['id', 'body', 'created_at'])
      .where('team_id', '=', teamId)
      .where('channel_id', '=', channelId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, body: row.body, createdDateTime: row.created_at }));
  }

  private async requireChannel(db: Kysely<Database>, teamId: string, channelId: string): Promise<void> {
    const row = await db
      .selectFrom('platform_channels')
      .select('id')
      .where('id', '=', channelId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (row) return;
    const team = await db
      .selectFrom('platform_teams')
      .select('id')
      .where('id', '=', teamId)
      .executeTakeFirst();
    throw new NotFound(team ? `Team ${teamId} has no channel ${channelId}.` : `There is no team ${teamId}.`);
  }
}
