import type { Kysely } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { Database } from '../../store/schema';
import type { ChannelFiles, ChannelFolder } from '../port';

/** A folder or file of a channel, as the viewer lists it. */
export interface ChannelItem {
  path: string;
  kind: 'folder' | 'file';
  /** A file's size in bytes (UTF-8). */
  bytes?: number;
}

/**
 * The embedded tenant's channel files: each channel's folder is ready as soon as the channel is (the
 * simulated tenant has no SharePoint site to wait for); folders and starter files are rows of
 * `platform_channel_items`, one per path, so a second write of a path keeps the first.
 */
export class EmbeddedChannelFiles implements ChannelFiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly stamp: () => string,
  ) {}

  async filesFolder(teamId: string, channelId: string): Promise<ChannelFolder> {
    const channel = await this.db
      .selectFrom('platform_channels')
      .select('id')
      .where('team_id', '=', teamId)
      .where('id', '=', channelId)
      .executeTakeFirst();
    if (!channel) throw new NotFound(`Team ${teamId} has no channel ${channelId}.`);
    return { driveId: teamId, itemId: channelId };
  }

  createFolder(folder: ChannelFolder, path: string): Promise<boolean> {
    return this.insert(folder, path, 'folder', null);
  }

  createFile(folder: ChannelFolder, path: string, content: string): Promise<boolean> {
    return this.insert(folder, path, 'file', content);
  }

  async existingItems(folder: ChannelFolder, paths: readonly string[]): Promise<Set<string>> {
    await this.filesFolder(folder.driveId, folder.itemId);
    const rows = await this.db
      .selectFrom('platform_channel_items')
      .select('path_key')
      .where('channel_id', '=', folder.itemId)
      .execute();
    const there = new Set(rows.map((r) => r.path_key));
    return new Set(paths.map((p) => p.toLowerCase()).filter((p) => there.has(p)));
  }

  /** Every folder and file of the team's channels, by channel, in path order. */
  async itemsOf(teamId: string): Promise<Map<string, ChannelItem[]>> {
    const rows = await this.db
      .selectFrom('platform_channel_items')
      .select(['channel_id', 'path', 'kind', 'content'])
      .where('team_id', '=', teamId)
      .orderBy('path_key')
      .execute();
    const byChannel = new Map<string, ChannelItem[]>();
    for (const row of rows) {
      const items = byChannel.get(row.channel_id) ?? [];
      items.push({
        path: row.path,
        kind: row.kind,
        ...(row.kind === 'file' ? { bytes: new TextEncoder().encode(row.content ?? '').length } : {}),
      });
      byChannel.set(row.channel_id, items);
    }
    return byChannel;
  }

  private async insert(
    folder: ChannelFolder,
    path: string,
    kind: 'folder' | 'file',
    content: string | null,
  ): Promise<boolean> {
    await this.filesFolder(folder.driveId, folder.itemId);
    const result = await this.db
      .insertInto('platform_channel_items')
      .values({
        channel_id: folder.itemId,
        path_key: path.toLowerCase(),
        team_id: folder.driveId,
        path,
        kind,
        content,
        created_at: this.stamp(),
      })
      .onConflict((oc) => oc.columns(['channel_id', 'path_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
