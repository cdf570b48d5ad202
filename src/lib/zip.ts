import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads files out of a zip archive held in memory: enough for a Teams app package, whose
 * `manifest.json` the administrator's command, the Graph simulator and the package's tests read. The layout is
 * PKWARE's APPNOTE.TXT (sections 4.3.6, 4.3.7, 4.3.12 and 4.3.16): the end of central directory
 * record, then the central directory's file headers, each pointing at a local file header followed
 * by the data, stored (method 0) or deflated (method 8). Zip64 and encrypted entries are refused.
 */

export class ZipError extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of up to 65,535 bytes. */
const END_RECORD_SIZE = 22;

/** One file of an archive: its name, and its content read (and checked) on demand. */
interface DirectoryEntry {
  name: string;
  read(): Buffer;
}

/** The files of `zip`, in the central directory's order. */
function* directory(zip: Buffer): Generator<DirectoryEntry> {
  const end = findEndOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new ZipError('the zip central directory is damaged');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    yield {
      name,
      read: () => {
        if (flags & 1) throw new ZipError(`${name} is encrypted`);
        if (compressed === 0xffffffff || local === 0xffffffff)
          throw new ZipError('zip64 archives are not read');
        const content = entryData(zip, local, method, compressed, size, name);
        if (crc32(content) !== crc) throw new ZipError(`${name} does not match its checksum`);
        return content;
      },
    };
  }
}

/** The content of `name` in `zip`, or undefined when the archive holds no such file. */
export function readZipEntry(zip: Buffer, name: string): Buffer | undefined {
  for (const entry of directory(zip)) if (entry.name === name) return entry.read();
  return undefined;
}

/** Every file of `zip` with its content, in the archive's order. */
export function zipEntries(zip: Buffer): Array<{ name: string; data: Buffer }> {
  return [...directory(zip)].map((entry) => ({ name: entry.name, data: entry.read() }));
}

function findEndOfDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - END_RECORD_SIZE - 0xffff);
  for (let at = zip.length - END_RECORD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new ZipError('not a zip archive');
}

function entryData(
  zip: Buffer,
  local: number,
  method: number,
  compressed: number,
  size: number,
  name: string,
): Buffer {
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER)
    throw new ZipError(`the local header of ${name} is damaged`);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  if (start + compressed > zip.length) throw new ZipError(`${name} is cut short`);
  const data = zip.subarray(start, start + compressed);
  let content: Buffer;
  if (method === 0) content = Buffer.from(data);
  else if (method === 8) {
    try {
      content = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
    } catch {
      throw new ZipError(`${name} cannot be inflated`);
    }
  } else throw new ZipError(`${name} uses compression method ${method}, which is not read`);
  if (content.length !== size) throw new ZipError(`${name} is not the size its header says`);
  return content;
}
