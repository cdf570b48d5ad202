import { fail, type Reply } from './protocol';

/** The writes asked of a drive: folders and files asked for, made, and files replaced. */
export interface DriveWrites {
  folderPosts: number;
  foldersMade: number;
  contentPuts: number;
  filesMade: number;
  filesReplaced: number;
}

const none = (): DriveWrites => ({
  folderPosts: 0,
  foldersMade: 0,
  contentPuts: 0,
  filesMade: 0,
  filesReplaced: 0,
});

/** The simulator's count of the writes asked of each drive, so a test can assert on a team's. */
export class DriveWriteCounts {
  private readonly byDrive = new Map<string, DriveWrites>();

  /** The counts of one drive, to add to. */
  of(driveId: string): DriveWrites {
    let writes = this.byDrive.get(driveId);
    if (!writes) this.byDrive.set(driveId, (writes = none()));
    return writes;
  }

  /** The counts of these drives, added up (each drive once). */
  total(driveIds: Iterable<string>): DriveWrites {
    const sum = none();
    for (const drive of new Set(driveIds)) {
      const writes = this.byDrive.get(drive);
      if (!writes) continue;
      for (const key of Object.keys(sum) as Array<keyof DriveWrites>) sum[key] += writes[key];
    }
    return sum;
  }
}

/** SharePoint's refusal of a name, or undefined when it takes it. */
export function nameRefusal(name: string): Reply | undefined {
  const reserved = /^(\.lock|con|prn|aux|nul|com\d|lpt\d|desktop\.ini)$/i;
  if (
    name === '' ||
    /["*:<>?/\\|]/.test(name) ||
    name !== name.trim() ||
    reserved.test(name) ||
    name.startsWith('~$') ||
    name.toLowerCase().includes('_vti_')
  ) {
    return fail(
      400,
      'invalidRequest',
      `The name "${name}" contains characters or a form SharePoint does not allow.`,
    );
  }
  return undefined;
}
