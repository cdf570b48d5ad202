#!/usr/bin/env node
/**
 * Draws the Teams app icons with no image library: manifest/color.png (192×192, white people on
 * Steward's accent colour) and manifest/outline.png (32×32, white on transparent, as Teams asks).
 * Run `node scripts/icons.js` after changing the drawing; the PNGs are committed.
 */
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** Steward's accent colour (also `accentColor` in the manifest). */
const ACCENT = [0x5b, 0x5f, 0xc7];
/** Samples per pixel side, for anti-aliased edges. */
const SUPERSAMPLE = 4;

/**
 * The glyph, in a unit box (0..1 both ways): three people, the middle one in front. Returns
 * whether the point is inside.
 */
function insideGlyph(x, y) {
  const inCircle = (cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  // A body is the top half of an ellipse standing on the glyph's baseline.
  const inBody = (cx, top, rx, bottom) => {
    if (y > bottom || y < top) return false;
    const ry = bottom - top;
    return ((x - cx) / rx) ** 2 + ((y - bottom) / ry) ** 2 <= 1;
  };
  const person = (cx, headY, headR, bodyTop, bodyRx, bottom) =>
    inCircle(cx, headY, headR) || inBody(cx, bodyTop, bodyRx, bottom);
  const middle = person(0.5, 0.3, 0.15, 0.5, 0.27, 0.9);
  // The people behind are cut away around the middle one, so the silhouettes stay apart.
  const gap = inCircle(0.5, 0.3, 0.2) || inBody(0.5, 0.45, 0.33, 0.92);
  const sides = person(0.2, 0.38, 0.11, 0.55, 0.2, 0.85) || person(0.8, 0.38, 0.11, 0.55, 0.2, 0.85);
  return middle || (sides && !gap);
}

/** Coverage (0..1) of the glyph over a pixel, with the glyph drawn in a square of `box` pixels at `offset`. */
function coverage(px, py, box, offset) {
  let hits = 0;
  for (let sy = 0; sy < SUPERSAMPLE; sy++) {
    for (let sx = 0; sx < SUPERSAMPLE; sx++) {
      const x = (px + (sx + 0.5) / SUPERSAMPLE - offset) / box;
      const y = (py + (sy + 0.5) / SUPERSAMPLE - offset) / box;
      if (x >= 0 && x <= 1 && y >= 0 && y <= 1 && insideGlyph(x, y)) hits++;
    }
  }
  return hits / (SUPERSAMPLE * SUPERSAMPLE);
}

/** An RGBA image of `size`×`size` from a pixel function returning [r, g, b, a]. */
function draw(size, pixel) {
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) rgba.set(pixel(x, y), (y * size + x) * 4);
  }
  return rgba;
}

/** A PNG file (8-bit RGBA, no filtering) of a square RGBA image. */
function png(size, rgba) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour icon: the glyph in white, 96 px wide, centred on a full accent-colour square. */
function colorIcon() {
  const size = 192;
  return png(
    size,
    draw(size, (x, y) => {
      const c = coverage(x, y, 112, 40);
      return [...ACCENT.map((channel) => Math.round(channel + (255 - channel) * c)), 255];
    }),
  );
}

/** The outline icon: the glyph in white on transparent, filling the 32 px square with a 2 px margin. */
function outlineIcon() {
  const size = 32;
  return png(
    size,
    draw(size, (x, y) => [255, 255, 255, Math.round(255 * coverage(x, y, 28, 2))]),
  );
}

if (require.main === module) {
  const manifest = path.resolve(__dirname, '..', 'manifest');
  writeFileSync(path.join(manifest, 'color.png'), colorIcon());
  writeFileSync(path.join(manifest, 'outline.png'), outlineIcon());
  console.log('Wrote manifest/color.png (192×192) and manifest/outline.png (32×32).');
}

module.exports = { colorIcon, outlineIcon };
