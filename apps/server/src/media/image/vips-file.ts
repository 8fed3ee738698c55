import { open } from 'node:fs/promises';

/**
 * libvips's own image format (.v): a 64-byte header, then the pixels row by row as they lie in
 * memory. sharp reads it from a file, so a picture made a band of rows at a time (the upscaler's
 * tiles) is written to disk as it comes and never has to be one Buffer on the main thread: at
 * 64 MP that Buffer was 192 MB, and an idle process, which collects no garbage, kept it.
 */
const HEADER_BYTES = 64;
/** The header's first four bytes for a file whose numbers are little-endian. */
const MAGIC_LITTLE_ENDIAN = [0xb6, 0xa6, 0xf2, 0x08];
const BITS_PER_BAND = 8;
const FORMAT_UCHAR = 0;
const CODING_NONE = 0;
const INTERPRETATION_SRGB = 22;
const RGB = 3;

function rgbHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.set(MAGIC_LITTLE_ENDIAN, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height, 8);
  header.writeInt32LE(RGB, 12);
  header.writeInt32LE(BITS_PER_BAND, 16);
  header.writeInt32LE(FORMAT_UCHAR, 20);
  header.writeInt32LE(CODING_NONE, 24);
  header.writeInt32LE(INTERPRETATION_SRGB, 28);
  // Resolution in pixels per millimetre (1, as libvips writes when none is known); the rest
  // (length, compression, offsets) stays 0.
  header.writeFloatLE(1, 32);
  header.writeFloatLE(1, 36);
  return header;
}

/** Writes whole rows of RGB pixels, starting at row `firstRow`, into the file being made. */
export type WriteRows = (rows: Uint8Array, firstRow: number) => Promise<void>;

/**
 * Makes the sRGB .v file `path` of `width` × `height` pixels: `fill` is given a function that
 * writes rows where they belong, and every row must be written once before it resolves.
 */
export async function writeVipsRgb(
  path: string,
  width: number,
  height: number,
  fill: (write: WriteRows) => Promise<void>,
): Promise<void> {
  const file = await open(path, 'w');
  const writeAll = async (bytes: Uint8Array, position: number) => {
    for (let done = 0; done < bytes.length;) {
      const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
      done += bytesWritten;
    }
  };
  try {
    await writeAll(rgbHeader(width, height), 0);
    await fill((rows, firstRow) => writeAll(rows, HEADER_BYTES + firstRow * width * RGB));
  } finally {
    await file.close();
  }
}
