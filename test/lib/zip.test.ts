import { deflateRawSync } from 'node:zlib';
import yazl from 'yazl';
import { readZipEntry, ZipError, zipEntries } from '../../src/lib/zip';

/** A zip made by yazl (the library `npm run manifest` packs the Teams app with). */
async function zipOf(
  files: Record<string, { content: Buffer; compress?: boolean }>,
  comment = '',
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, file] of Object.entries(files))
    zip.addBuffer(file.content, name, { compress: file.compress ?? true });
  zip.end({ comment, forceZip64Format: false });
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('readZipEntry', () => {
  test('reads deflated and stored entries, and says when a name is absent', async () => {
    const manifest = Buffer.from(
      JSON.stringify({ id: 'f31b1263-ba99-435a-a679-911d24850d7c', text: 'é'.repeat(500) }),
    );
    const icon = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const zip = await zipOf(
      { 'manifest.json': { content: manifest }, 'color.png': { content: icon, compress: false } },
      'a comment at the end',
    );
    expect(readZipEntry(zip, 'manifest.json')).toEqual(manifest);
    expect(readZipEntry(zip, 'color.png')).toEqual(icon);
    expect(readZipEntry(zip, 'outline.png')).toBeUndefined();
  });

  test('refuses what is not a zip, or a damaged one, with ZipError', async () => {
    expect(() => readZipEntry(Buffer.from('{"id":"x"}'), 'manifest.json')).toThrow(ZipError);
    const zip = await zipOf({ 'manifest.json': { content: Buffer.from('x'.repeat(1000)) } });
    const damaged = Buffer.from(zip);
    // The deflated data of the only entry starts after its 30-byte local header and its name.
    deflateRawSync(Buffer.from('other')).copy(damaged, 30 + 'manifest.json'.length);
    expect(() => readZipEntry(damaged, 'manifest.json')).toThrow(ZipError);
    expect(() => readZipEntry(zip.subarray(0, zip.length - 30), 'manifest.json')).toThrow(ZipError);
  });
});

describe('zipEntries', () => {
  test('lists every file in order, and refuses one whose content does not match its checksum', async () => {
    const icon = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const zip = await zipOf({
      'manifest.json': { content: Buffer.from('{"id":"x"}') },
      'color.png': { content: icon, compress: false },
    });
    expect(zipEntries(zip)).toEqual([
      { name: 'manifest.json', data: Buffer.from('{"id":"x"}') },
      { name: 'color.png', data: icon },
    ]);
    // The stored icon with one byte changed: same size, another checksum.
    const altered = Buffer.from(zip);
    const at = altered.indexOf(icon);
    altered[at + 7] = 9;
    expect(() => zipEntries(altered)).toThrow('color.png does not match its checksum');
  });
});
