import { randomBytes } from 'node:crypto';
import { fail, type Json, type Reply } from './protocol';
import { DriveWriteCounts, type DriveWrites, nameRefusal } from './driveRules';
import type { ChannelRecord, ParsedRequest, TeamRecord } from './records';

/** An item of a simulated document library: a folder or a file. */
export interface DriveItemRecord {
  id: string;
  name: string;
  parentId: string | null;
  folder: boolean;
  content?: string;
  createdDateTime: string;
}

/** Where a channel keeps its files. */
interface ChannelFolderRecord {
  driveId: string;
  itemId: string;
}

/**
 * Channels' files in SharePoint document libraries, after Microsoft's documentation
 * (microsoftgraph/microsoft-graph-docs-contrib, api-reference/v1.0/):
 *
 * - `api/channel-get-filesfolder.md`: the channel's folder as a driveItem with its
 *   `parentReference.driveId`. A standard channel's folder is in the team's library; a private or
 *   shared channel gets a site of its own, which "might fail to provision" at first
 *   (`api/channel-post.md`): until `filesFolderMs` after the channel was made its folder answers
 *   404, and a `GET …/filesFolder` is what triggers the site's provisioning.
 * - `api/driveitem-post-children.md`: a folder made under an item (by id, or by a path under it,
 *   `items/{id}:/{path}:/children`); with `@microsoft.graph.conflictBehavior: fail` an existing
 *   name answers 409 `nameAlreadyExists` (names compared without case).
 * - `api/driveitem-list-children.md`: `GET /drives/{drive}/items/{item}/children`, an OData
 *   collection paged with `@odata.nextLink`.
 * - `api/driveitem-put-content.md` ("Upload or replace the contents of a driveItem"): a small file
 *   uploaded by path with `PUT …:/{path}:/content`, 201 when new; an existing one is replaced (200).
 *   That page names no query parameter and no conditional header; `resources/driveitem.md` gives
 *   `@microsoft.graph.conflictBehavior` ("fail, replace, or rename; the default for PUT is
 *   replace") and OneDrive's reference of the same call (OneDrive/onedrive-api-docs,
 *   `docs/rest-api/api/driveitem_put_content.md`, "Conflict Resolution Behavior") takes it as a
 *   query parameter: with `fail` an existing name answers 409 `nameAlreadyExists`. Graph's own page
 *   alone reads as "always replace": `putConflictBehavior = 'ignored'` simulates that reading, so a
 *   test can show that nothing relies on the parameter. `If-None-Match` is documented for reads
 *   only (`api/driveitem-get.md`): a PUT's is ignored.
 * - SharePoint's names: none of `" * : < > ? / \ |`, no leading or trailing space, none of its
 *   reserved names (`CON`, `PRN`, `AUX`, `NUL`, `COM0-9`, `LPT0-9`, `.lock`, `desktop.ini`), nothing
 *   starting with `~$` or holding `_vti_`: 400 `invalidRequest`.
 */
export class FakeDrives {
  /** Every item of every drive, by drive id. */
  readonly drives = new Map<string, Map<string, DriveItemRecord>>();
  private readonly folders = new Map<string, ChannelFolderRecord>();
  /** Channels whose site was made early (`provisionNow`). */
  private readonly ready = new Set<string>();
  /** Replaces the simulator's `filesFolderMs` from now on (tests of the wait). */
  siteDelayMs: number | undefined;
  /** Whether `PUT …/content` takes `@microsoft.graph.conflictBehavior` from its query (see above). */
  putConflictBehavior: 'honored' | 'ignored' = 'honored';
  /** The writes asked of each drive (tests of what a job writes: `writesIn`). */
  private readonly writes = new DriveWriteCounts();

  constructor(
    private readonly filesFolderMs: () => number,
    private readonly collection: (request: ParsedRequest, items: Json[]) => Reply,
  ) {}

  /** `GET /teams/{id}/channels/{id}/filesFolder`. */
  filesFolder(team: TeamRecord, channel: ChannelRecord): Reply {
    const ownSite = channel.membershipType !== 'standard';
    const madeAt = Date.parse(channel.createdDateTime);
    if (
      ownSite &&
      !this.ready.has(channel.id) &&
      Date.now() < madeAt + (this.siteDelayMs ?? this.filesFolderMs())
    ) {
      return fail(404, 'NotFound', 'The files folder of this channel is not provisioned yet.');
    }
    let record = this.folders.get(channel.id);
    if (!record) {
      const driveId = ownSite ? `b!${randomBytes(9).toString('hex')}` : `b!team-${team.id}`;
      const drive = this.drive(driveId);
      const rootId = `root-${driveId}`;
      if (!drive.has(rootId))
        drive.set(rootId, { id: rootId, name: 'root', parentId: null, folder: true, createdDateTime: now() });
      const folder = this.newItem(drive, rootId, channel.displayName, true);
      record = { driveId, itemId: folder.id };
      this.folders.set(channel.id, record);
    }
    const item = this.drive(record.driveId).get(record.itemId)!;
    return { status: 200, body: this.itemJson(record.driveId, item) };
  }

  /** `POST /drives/{drive}/items/{item}[:/{path}:]/children`: a folder. */
  createChild(request: ParsedRequest, driveId: string, itemId: string, path: string | undefined): Reply {
    const writes = this.writes.of(driveId);
    writes.folderPosts++;
    const drive = this.drives.get(driveId);
    if (!drive) return fail(404, 'itemNotFound', 'The drive does not exist.');
    const parent = this.resolve(drive, itemId, path);
    if (!parent?.folder) return fail(404, 'itemNotFound', 'The parent item does not exist.');
    const name = request.body.name;
    if (typeof name !== 'string' || !request.body.folder)
      return fail(400, 'invalidRequest', 'This simulator makes folders only: name and folder are required.');
    const refused = nameRefusal(name);
    if (refused) return refused;
    const existing = this.childNamed(drive, parent.id, name);
    if (existing) {
      const behaviour = request.body['@microsoft.graph.conflictBehavior'] ?? 'fail';
      if (behaviour === 'fail')
        return fail(409, 'nameAlreadyExists', 'The specified item name already exists.');
      if (behaviour === 'replace') return { status: 200, body: this.itemJson(driveId, existing) };
    }
    const finalName = existing ? `${name} 1` : name;
    const item = this.newItem(drive, parent.id, finalName, true);
    writes.foldersMade++;
    return { status: 201, body: this.itemJson(driveId, item) };
  }

  /** `GET /drives/{drive}/items/{item}/children`: what is directly in a folder. */
  listChildren(request: ParsedRequest, driveId: string, itemId: string): Reply {
    const drive = this.drives.get(driveId);
    const parent = drive?.get(itemId);
    if (!drive || !parent) return fail(404, 'itemNotFound', 'The resource could not be found.');
    const children = [...drive.values()].filter((i) => i.parentId === parent.id);
    return this.collection(
      request,
      children.map((i) => this.itemJson(driveId, i)),
    );
  }

  /** `PUT /drives/{drive}/items/{item}:/{path}:/content`: a small file. */
  putContent(request: ParsedRequest, driveId: string, itemId: string, path: string): Reply {
    const writes = this.writes.of(driveId);
    writes.contentPuts++;
    const drive = this.drives.get(driveId);
    if (!drive) return fail(404, 'itemNotFound', 'The drive does not exist.');
    const segments = path.split('/');
    const name = segments.pop() ?? '';
    const parent = this.resolve(drive, itemId, segments.join('/') || undefined);
    if (!parent?.folder) return fail(404, 'itemNotFound', 'The parent folder does not exist.');
    const refused = nameRefusal(name);
    if (refused) return refused;
    const text = request.text ?? '';
    const existing = this.childNamed(drive, parent.id, name);
    if (existing) {
      const asked = request.url.searchParams.get('@microsoft.graph.conflictBehavior');
      const behaviour = this.putConflictBehavior === 'honored' ? (asked ?? 'replace') : 'replace';
      if (behaviour === 'fail')
        return fail(409, 'nameAlreadyExists', 'The specified item name already exists.');
      existing.content = text;
      writes.filesReplaced++;
      return { status: 200, body: this.itemJson(driveId, existing) };
    }
    const item = this.newItem(drive, parent.id, name, false, text);
    writes.filesMade++;
    return { status: 201, body: this.itemJson(driveId, item) };
  }

  /** `GET /drives/{drive}/items/{item}:/{path}:` (`api/driveitem-get.md`): the item, or 404 `itemNotFound`. */
  getByPath(driveId: string, itemId: string, path: string): Reply {
    const drive = this.drives.get(driveId);
    if (!drive) return fail(404, 'itemNotFound', 'The drive does not exist.');
    const item = this.resolve(drive, itemId, path);
    if (!item) return fail(404, 'itemNotFound', 'The resource could not be found.');
    return { status: 200, body: this.itemJson(driveId, item) };
  }

  /** Makes every private and shared channel's site now, as if the wait were over. */
  provisionNow(channelIds: Iterable<string>): void {
    for (const id of channelIds) this.ready.add(id);
  }

  /** The paths under a channel's files folder (`Contracts/Signed`), folders marked with a trailing `/`. */
  itemsOf(channelId: string): string[] {
    const record = this.folders.get(channelId);
    if (!record) return [];
    const drive = this.drive(record.driveId);
    const out: string[] = [];
    const walk = (parentId: string, prefix: string) => {
      for (const item of [...drive.values()].filter((i) => i.parentId === parentId)) {
        out.push(`${prefix}${item.name}${item.folder ? '/' : ''}`);
        if (item.folder) walk(item.id, `${prefix}${item.name}/`);
      }
    };
    walk(record.itemId, '');
    return out.sort();
  }

  /** The item id of a channel's files folder, once it was read. */
  folderItemOf(channelId: string): string | undefined {
    return this.folders.get(channelId)?.itemId;
  }

  /** The writes asked of the drives of these channels' files folders, added up. */
  writesIn(channelIds: Iterable<string>): DriveWrites {
    return this.writes.total([...channelIds].flatMap((id) => this.folders.get(id)?.driveId ?? []));
  }

  /** An owner's edit of a file, by its path under the channel's folder, as Teams' Files tab makes it. */
  edit(channelId: string, path: string, text: string): void {
    const record = this.folders.get(channelId);
    const item = record && this.resolve(this.drive(record.driveId), record.itemId, path);
    if (!item || item.folder) throw new Error(`No file ${path} in channel ${channelId}.`);
    item.content = text;
  }

  /** A file's text by its path under the channel's folder. */
  contentOf(channelId: string, path: string): string | undefined {
    const record = this.folders.get(channelId);
    if (!record) return undefined;
    return this.resolve(this.drive(record.driveId), record.itemId, path)?.content;
  }

  private drive(id: string): Map<string, DriveItemRecord> {
    let drive = this.drives.get(id);
    if (!drive) this.drives.set(id, (drive = new Map()));
    return drive;
  }

  private resolve(
    drive: Map<string, DriveItemRecord>,
    itemId: string,
    path: string | undefined,
  ): DriveItemRecord | undefined {
    let item = drive.get(itemId);
    for (const name of path ? path.split('/') : []) {
      if (!item) return undefined;
      item = this.childNamed(drive, item.id, name);
    }
    return item;
  }

  private childNamed(
    drive: Map<string, DriveItemRecord>,
    parentId: string,
    name: string,
  ): DriveItemRecord | undefined {
    return [...drive.values()].find(
      (i) => i.parentId === parentId && i.name.toLowerCase() === name.toLowerCase(),
    );
  }

  private newItem(
    drive: Map<string, DriveItemRecord>,
    parentId: string,
    name: string,
    folder: boolean,
    content?: string,
  ): DriveItemRecord {
    const item: DriveItemRecord = {
      id: randomBytes(12).toString('hex').toUpperCase(),
      name,
      parentId,
      folder,
      createdDateTime: now(),
      ...(content === undefined ? {} : { content }),
    };
    drive.set(item.id, item);
    return item;
  }

  private itemJson(driveId: string, item: DriveItemRecord) {
    return {
      id: item.id,
      name: item.name,
      createdDateTime: item.createdDateTime,
      parentReference: {
        driveId,
        driveType: 'documentLibrary',
        ...(item.parentId ? { id: item.parentId } : {}),
      },
      ...(item.folder
        ? { folder: { childCount: 0 } }
        : { file: { mimeType: 'text/plain' }, size: Buffer.byteLength(item.content ?? '') }),
    };
  }
}

function now(): string {
  return new Date().toISOString();
}
