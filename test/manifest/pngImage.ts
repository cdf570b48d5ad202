import { inflateSync } from 'node:zlib';

/** A PNG's size and colour type, from its IHDR chunk. */
export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The header of a PNG file; throws when the bytes are not a PNG. */
export function pngHeader(png: Buffer): PngHeader {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  if (png.toString('ascii', 12, 16) !== 'IHDR') throw new Error('IHDR is not the first chunk');
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png.readUInt8(24),
    colorType: png.readUInt8(25),
  };
}

/**
 * The RGBA pixels of an 8-bit RGBA PNG whose rows all use filter 0 (as the icon script writes
 * them); throws for anything else rather than misreading it.
 */
export function pngPixels(png: Buffer): Buffer {
  const { width, height, bitDepth, colorType } = pngHeader(png);
  if (bitDepth !== 8 || colorType !== 6) throw new Error('not 8-bit RGBA');
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(idat));
  const stride = width * 4 + 1;
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    if (rows[y * stride] !== 0) throw new Error(`row ${y} uses filter ${rows[y * stride]}`);
    rows.copy(pixels, y * width * 4, y * stride + 1, (y + 1) * stride);
  }
  return pixels;
}
