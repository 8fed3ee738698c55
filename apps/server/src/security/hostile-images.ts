import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { pngBytes } from '../test/image-fixtures.js';

/** Files that attack image converters, each the shape of a published exploit. */

/** ImageMagick's own vector language, fetching a URL and shelling out (ImageTragick, CVE-2016-3714). */
export const mvg = (url: string) =>
  Buffer.from(
    `push graphic-context\nviewbox 0 0 640 480\nfill 'url(${url}"|touch "/tmp/refract-pwned)'\npop graphic-context\n`,
  );

/** MVG pulling other ImageMagick coders: ephemeral: deletes the file it reads, label:@ prints one. */
export const mvgWith = (coder: string) =>
  Buffer.from(
    `push graphic-context\nviewbox 0 0 640 480\nimage over 0,0 0,0 '${coder}'\npop graphic-context\n`,
  );

/** ImageMagick's scripting language: read a local file, write another. */
export const msl = (read: string, write: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<image>\n<read filename="${read}" />\n<write filename="${write}" />\n</image>\n`,
  );

/** Entities that expand to gigabytes ("billion laughs"). */
export const billionLaughs = () => {
  const levels = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
  ).join('');
  return Buffer.from(
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY l0 "lol">${levels}]>` +
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><text y="10">&l9;</text></svg>',
  );
};

/** An SVG drawing an image from elsewhere over a white page. */
export const svgWithHref = (href: string) =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20">' +
      `<rect width="20" height="20" fill="white"/><image href="${href}" xlink:href="${href}" width="20" height="20"/>` +
      `<rect width="1" height="1" fill="url(${href})"/></svg>`,
  );

/** An SVG given a style sheet by an `<?xml-stylesheet?>` processing instruction. */
export const svgWithStylesheet = (href: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<?xml-stylesheet type="text/css" href="${href}"?>\n` +
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="white"/></svg>',
  );

/** An SVG whose style sheet says `css` (a reference spelled with escapes, comments, ...). */
export const svgWithCss = (css: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><style>${css}</style>` +
      '<rect class="x" width="20" height="20" fill="white"/></svg>',
  );

/** A few bytes of SVG that draw as `width`×`height` pixels. */
export const svgOfSize = (width: number, height: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%"/></svg>`,
  );

/** An SVG of `size`² whose one rectangle goes through `filter`'s primitives. */
export const filteredSvg = (size: number, filter: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">` +
      `<filter id="f">${filter}</filter>` +
      `<rect width="${size}" height="${size}" fill="red" filter="url(#f)"/></svg>`,
  );

/** A few hundred bytes that librsvg drew for a quarter of an hour at 3.7 GB. */
export const svgFilterBomb = () =>
  filteredSvg(
    9000,
    '<feTurbulence baseFrequency="0.9" numOctaves="10"/><feGaussianBlur stdDeviation="200"/>' +
      '<feMorphology radius="100"/>',
  );

/** A PNG with a tEXt "profile" chunk naming a local file (CVE-2022-44268). */
export async function pngAskingForFile(path: string) {
  const png = Buffer.from(await pngBytes(8, 8));
  const data = Buffer.concat([Buffer.from('tEXtprofile\0'), Buffer.from(path)]);
  const chunk = Buffer.alloc(data.length + 8);
  chunk.writeUInt32BE(data.length - 4, 0);
  data.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(data), data.length + 4);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** A valid PNG that is also an HTML page with a script (a polyglot). */
export async function pngHtmlPolyglot() {
  return Buffer.concat([
    await pngBytes(8, 8),
    Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
  ]);
}

/**
 * A small file that decodes to `side`² pixels: an 8-bit BMP whose rows are RLE8 runs of 255
 * pixels (2 bytes each), so 9999×9999 (100 MP) is about 800 KB.
 */
export function rle8Bmp(side = 9999) {
  const row: number[] = [];
  for (let left = side; left > 0; left -= 255) row.push(Math.min(255, left), 1);
  row.push(0, 0); // end of line
  const pixels = Buffer.alloc(row.length * side + 2);
  const rowBytes = Buffer.from(row);
  for (let y = 0; y < side; y += 1) rowBytes.copy(pixels, y * row.length);
  pixels.writeUInt16BE(0x0001, pixels.length - 2); // end of bitmap
  const palette = Buffer.alloc(256 * 4);
  palette.writeUInt32LE(0x00ff0000, 4); // index 1: red
  const header = Buffer.alloc(14 + 40);
  const offset = header.length + palette.length;
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(offset + pixels.length, 2);
  header.writeUInt32LE(offset, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(side, 18);
  header.writeInt32LE(side, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(8, 28);
  header.writeUInt32LE(1, 30); // BI_RLE8
  header.writeUInt32LE(pixels.length, 34);
  header.writeUInt32LE(256, 46);
  return Buffer.concat([header, palette, pixels]);
}

/** A PSD header declaring `side`² RGB pixels in RLE, with only a few bytes behind it. */
export function psdOfSize(side = 30_000) {
  const header = Buffer.alloc(26);
  header.write('8BPS', 0, 'latin1');
  header.writeUInt16BE(1, 4); // version
  header.writeUInt16BE(3, 12); // channels
  header.writeUInt32BE(side, 14); // height
  header.writeUInt32BE(side, 18); // width
  header.writeUInt16BE(8, 22); // depth
  header.writeUInt16BE(3, 24); // RGB
  // Empty colour-mode, resource and layer sections, then RLE image data (compression 1).
  return Buffer.concat([header, Buffer.alloc(12), Buffer.from([0, 1]), Buffer.alloc(64)]);
}

/** A run-length TGA header declaring 65535×65535, each packet a run of 128 pixels. */
export function tgaOfSize(side = 65_535) {
  const header = Buffer.alloc(18);
  header[2] = 10; // RLE true colour
  header.writeUInt16LE(side, 12);
  header.writeUInt16LE(side, 14);
  header[16] = 24;
  const packets = Buffer.alloc(4 * 4096);
  for (let i = 0; i < packets.length; i += 4) packets[i] = 0xff; // run of 128, one pixel
  return Buffer.concat([header, packets]);
}

/** A DDS header declaring `side`² uncompressed RGBA pixels, with none behind it. */
export function ddsOfSize(side = 16_384) {
  const dds = Buffer.alloc(128);
  dds.write('DDS ', 0, 'latin1');
  dds.writeUInt32LE(124, 4);
  dds.writeUInt32LE(0x1 | 0x2 | 0x4 | 0x1000, 8); // caps, height, width, pixel format
  dds.writeUInt32LE(side, 12);
  dds.writeUInt32LE(side, 16);
  dds.writeUInt32LE(32, 76); // pixel format size
  dds.writeUInt32LE(0x41, 80); // RGB with alpha
  dds.writeUInt32LE(32, 88);
  dds.writeUInt32LE(0x00ff0000, 92);
  dds.writeUInt32LE(0x0000ff00, 96);
  dds.writeUInt32LE(0x000000ff, 100);
  dds.writeUInt32LE(0xff000000, 104);
  dds.writeUInt32LE(0x1000, 108);
  return dds;
}

/** A GIF whose screen is 65535² and whose 200 frames each claim all of it. */
export function gifOfSize(side = 65_535, frames = 200) {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(side, 6);
  head.writeUInt16LE(side, 8);
  const frame = Buffer.alloc(10 + 4);
  frame[0] = 0x2c; // image descriptor
  frame.writeUInt16LE(side, 5);
  frame.writeUInt16LE(side, 7);
  frame[10] = 2; // LZW minimum code size
  frame[11] = 1; // one data byte
  frame[12] = 0x44;
  frame[13] = 0; // end of data
  return Buffer.concat([head, ...Array.from({ length: frames }, () => frame), Buffer.from([0x3b])]);
}

/**
 * An animated GIF of `frames` tiny frames, each shown for `centiseconds` (GIF's unit; 65535, the
 * most it holds, is 655 s): 9 such frames are a few hundred bytes that play for 98 minutes.
 */
export async function animatedGif(frames: number, centiseconds: number) {
  const side = 8;
  const pixels = Buffer.alloc(side * side * frames * 3);
  // One flat colour a frame, so that each frame differs and the file stays tiny.
  for (let i = 0; i < pixels.length; i += 3)
    pixels[i] = (Math.floor(i / 3 / (side * side)) * 40) % 256;
  // sharp takes at most 65535 ms a frame: written with a marker delay, then set in the bytes.
  const marker = 123;
  const gif = await sharp(pixels, {
    raw: { width: side, height: side * frames, channels: 3, pageHeight: side },
  })
    .gif({ delay: Array<number>(frames).fill(marker * 10), loop: 0 })
    .toBuffer();
  let patched = 0;
  // Each frame's graphic control extension: 21 F9 04, flags, then its delay (little-endian).
  for (let at = gif.indexOf(GRAPHIC_CONTROL); at >= 0; at = gif.indexOf(GRAPHIC_CONTROL, at + 1)) {
    if (gif.readUInt16LE(at + 4) !== marker) continue;
    gif.writeUInt16LE(centiseconds, at + 4);
    patched += 1;
  }
  if (patched !== frames) throw new Error(`set the delay of ${patched} frames of ${frames}`);
  return gif;
}
const GRAPHIC_CONTROL = Buffer.from([0x21, 0xf9, 0x04]);

/**
 * A HEIC whose image of `from` size declares `width`×`height` in its ispe box while its stream
 * stays small: what heif-info reads is what a grid or a hostile second image declares.
 */
export function heicDeclaring(heic: Buffer, from: [number, number], width: number, height: number) {
  const out = Buffer.from(heic);
  // An ispe box: size, type, version and flags, then width and height.
  for (
    let at = out.indexOf('ispe', 0, 'latin1');
    at >= 0;
    at = out.indexOf('ispe', at + 1, 'latin1')
  ) {
    if (out.readUInt32BE(at + 8) !== from[0] || out.readUInt32BE(at + 12) !== from[1]) continue;
    out.writeUInt32BE(width, at + 8);
    out.writeUInt32BE(height, at + 12);
    return out;
  }
  throw new Error(`no image of ${from.join('×')} in this HEIC`);
}
