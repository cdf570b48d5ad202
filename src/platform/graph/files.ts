import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { NotFound } from '../../domain/errors';
import { backoffMs } from '../../lib/backoff';
import {
  type ChannelFiles,
  type ChannelFolder,
  type OperationCheckpoint,
  type OperationState,
  PlatformError,
} from '../port';
import type { GraphClient } from './client';
import { segment } from './paths';
import type { Sleep } from './types';

/**
 * How long to wait for a channel's files folder. A private or shared channel gets its own
 * SharePoint site, made after the channel; Graph's `api/channel-post.md` says that if the site is
 * not there after five minutes, `GET …/filesFolder` triggers its provisioning. So the folder is read
 * at once (which also starts the site), then again after growing waits, and given up (transiently:
 * the job is retried later) after half an hour.
 */
export interface FilesFolderPolicy {
  firstDelayMs: number;
  growth: number;
  maxDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_FILES_FOLDER_POLICY: FilesFolderPolicy = {
  firstDelayMs: 15_000,
  growth: 1.5,
  maxDelayMs: 120_000,
  timeoutMs: 30 * 60_000,
};

/** A folder's creation request (`api/driveitem-post-children.md`): an existing one is refused (409). */
type FolderCreate = Pick<MSGraph.DriveItem, 'name' | 'folder'> & {
  '@microsoft.graph.conflictBehavior': 'fail';
};

/**
 * A channel's files on Microsoft Graph: `GET /teams/{id}/channels/{id}/filesFolder` (application
 * permission Files.Read.All), a folder's children by `GET /drives/{drive}/items/{item}/children`
 * (`api/driveitem-list-children.md`), folders by `POST /drives/{drive}/items/{folder}:/{parent}:/children`
 * with the conflict behaviour `fail` (an existing name answers 409, kept as it is), and small files
 * by `PUT /drives/{drive}/items/{folder}:/{path}:/content` (Files.ReadWrite.All).
 *
 * That PUT is "upload or replace" (`api/driveitem-put-content.md`): Graph's page for it documents
 * no way to make it create-only, and "the default for PUT is replace" (`resources/driveitem.md`).
 * So a file is written only where a read of its folder just found none. The query parameter
 * `@microsoft.graph.conflictBehavior=fail`, which OneDrive's reference of the same call documents
 * ("Conflict Resolution Behavior"), goes with it to close the moment between that read and the PUT
 * where the service honours it; nothing relies on it.
 */
export class GraphChannelFiles implements ChannelFiles {
  private readonly sleeping: OperationCheckpoint;

  constructor(
    private readonly client: GraphClient,
    private readonly policy: FilesFolderPolicy,
    sleep: Sleep,
  ) {
    this.sleeping = { wait: ({ afterMs }) => sleep(afterMs) };
  }

  /**
   * The folder, read until SharePoint has made it: each 404 is a wait through `operation` (the job
   * parks), and a step back from a park reads again at once.
   */
  async filesFolder(
    teamId: string,
    channelId: string,
    operation?: OperationCheckpoint,
  ): Promise<ChannelFolder> {
    const checkpoint = operation ?? this.sleeping;
    let state: OperationState = checkpoint.state ?? { startedAt: Date.now(), misses: 0 };
    const path = `/teams/${segment(teamId)}/channels/${segment(channelId)}/filesFolder`;
    for (;;) {
      try {
        const item = await this.client.get<MSGraph.DriveItem>(path);
        const driveId = item.parentReference?.driveId;
        if (!item.id || !driveId)
          throw new PlatformError('Microsoft Graph answered a files folder without its drive', 502, false);
        return { driveId, itemId: item.id };
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
      }
      if (Date.now() >= (state.startedAt ?? Date.now()) + this.policy.timeoutMs) {
        throw new PlatformError(
          `SharePoint has not made the files folder of channel ${channelId} after ${Math.round(this.policy.timeoutMs / 1000)} s`,
          504,
          true,
        );
      }
      const delayMs =
        state.delayMs === undefined
          ? this.policy.firstDelayMs
          : backoffMs(
              { baseMs: state.delayMs, factor: this.policy.growth, capMs: this.policy.maxDelayMs },
              1,
            );
      state = { ...state, delayMs, misses: (state.misses ?? 0) + 1 };
      await checkpoint.wait({ for: 'channelFiles', afterMs: delayMs, state });
    }
  }

  async createFolder(folder: ChannelFolder, path: string): Promise<boolean> {
    const segments = path.split('/');
    const name = segments.pop() ?? path;
    const parent = segments.length > 0 ? `:/${encodePath(segments)}:` : '';
    return this.created(() =>
      this.client.send({
        method: 'POST',
        path: `${itemPath(folder)}${parent}/children`,
        body: { name, folder: {}, '@microsoft.graph.conflictBehavior': 'fail' } satisfies FolderCreate,
      }),
    );
  }

  async createFile(folder: ChannelFolder, path: string, content: string): Promise<boolean> {
    try {
      const response = await this.client.send({
        method: 'PUT',
        path: `${itemPath(folder)}:/${encodePath(path.split('/'))}:/content?@microsoft.graph.conflictBehavior=fail`,
        content: { type: 'text/plain; charset=utf-8', text: content },
      });
      // 201 Created: made now. A 200 is Graph replacing a file someone made since the folder was read.
      return response.status === 201;
    } catch (error) {
      if (error instanceof PlatformError && error.status === 409) return false;
      throw error;
    }
  }

  async existingItems(folder: ChannelFolder, paths: readonly string[]): Promise<Set<string>> {
    const wanted = paths.map((p) => p.toLowerCase());
    // The folders worth reading: the channel's own and every folder on the way to a path.
    const ways = new Set(
      wanted.flatMap((p) => {
        const segments = p.split('/');
        return segments.slice(0, -1).map((_, depth) => segments.slice(0, depth + 1).join('/'));
      }),
    );
    const found = new Set<string>();
    const toRead = [{ path: '', itemId: folder.itemId }];
    for (let next = toRead.shift(); next; next = toRead.shift()) {
      const children = await this.client.list<MSGraph.DriveItem>(
        `/drives/${segment(folder.driveId)}/items/${segment(next.itemId)}/children?$select=id,name,folder`,
      );
      for (const child of children) {
        if (!child.name || !child.id) continue;
        const key = (next.path ? `${next.path}/${child.name}` : child.name).toLowerCase();
        found.add(key);
        if (child.folder && ways.has(key)) toRead.push({ path: key, itemId: child.id });
      }
    }
    return new Set(wanted.filter((p) => found.has(p)));
  }

  /** True once `send` made the item; false when Graph answered that one of that name exists (409). */
  private async created(send: () => Promise<unknown>): Promise<boolean> {
    try {
      await send();
      return true;
    } catch (error) {
      if (error instanceof PlatformError && error.status === 409) return false;
      throw error;
    }
  }
}

function itemPath(folder: ChannelFolder): string {
  return `/drives/${segment(folder.driveId)}/items/${segment(folder.itemId)}`;
}

function encodePath(segments: readonly string[]): string {
  return segments.map((s) => encodeURIComponent(s)).join('/');
}

/** The policy with its waits scaled (`STEWARD_GRAPH_TIME_SCALE`, a simulator's scaled latencies). */
export function scaledFilesFolderPolicy(policy: FilesFolderPolicy, scale: number): FilesFolderPolicy {
  return {
    ...policy,
    firstDelayMs: Math.round(policy.firstDelayMs * scale),
    maxDelayMs: Math.round(policy.maxDelayMs * scale),
    timeoutMs: Math.round(policy.timeoutMs * scale),
  };
}
