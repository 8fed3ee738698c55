import type { InputFormat } from './sniff.js';

/** Netpbm's header: magic, width, height, as whitespace-separated text with # comments. */
function netpbmPixels(head: Buffer): number | undefined {
  const text = head.toString('latin1', 0, Math.min(head.length, 1024)).replace(/#[^\n]*/g, ' ');
  const [, width, height] = text.trim().split(/\s+/);
  return width && height ? Number(width) * Number(height) : undefined;
}

/** BMP: a 12-byte OS/2 header holds 16-bit sizes, every later one 32-bit (height < 0: top-down). */
function bmpPixels(head: Buffer): number {
  if (head.readUInt32LE(14) === 12) return head.readUInt16LE(18) * head.readUInt16LE(20);
  return Math.abs(head.readInt32LE(18)) * Math.abs(head.readInt32LE(22));
}

const READERS: Partial<Record<InputFormat, (head: Buffer) => number | undefined>> = {
  bmp: bmpPixels,
  psd: (head) => head.readUInt32BE(14) * head.readUInt32BE(18),
  tga: (head) => head.readUInt16LE(12) * head.readUInt16LE(14),
  dds: (head) => head.readUInt32LE(12) * head.readUInt32LE(16),
  pcx: (head) =>
    (head.readUInt16LE(8) - head.readUInt16LE(4) + 1) *
    (head.readUInt16LE(10) - head.readUInt16LE(6) + 1),
  ppm: netpbmPixels,
  pgm: netpbmPixels,
  pbm: netpbmPixels,
};

/**
 * The pixels a file's header declares, read on the spot for the formats ImageMagick decodes: a
 * bomb is refused before a worker starts (ImageMagick pings the header again in its worker, for
 * what this does not read, such as an icon's embedded PNG). Undefined when the format has no
 * reader here or the file is too short to say.
 */
export function declaredPixels(bytes: Buffer, format: InputFormat): number | undefined {
  const read = READERS[format];
  if (!read || bytes.length < 26) return undefined;
  return read(bytes.subarray(0, 1024));
}
