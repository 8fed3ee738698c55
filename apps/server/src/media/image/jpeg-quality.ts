import { open } from 'node:fs/promises';

/** The IJG (libjpeg) luminance table that "quality" scales; order does not matter for a sum. */
const IJG_LUMINANCE = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
  14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
  92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

const tableSum = (quality: number) => {
  const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  return IJG_LUMINANCE.reduce(
    (sum, q) => sum + Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))),
    0,
  );
};
const SUMS = Array.from({ length: 100 }, (_, i) => tableSum(i + 1));

/**
 * The libjpeg quality (1–100) a JPEG was most likely saved at, from its first quantisation
 * table, as ImageMagick's `identify` estimates it; undefined when the header has none. Editing
 * tools re-encode near that quality so a q75 web image is not written back at q90, larger.
 */
export function estimateJpegQuality(head: Buffer): number | undefined {
  let at = 2;
  while (at + 4 <= head.length && head[at] === 0xff) {
    const marker = head[at + 1]!;
    const length = head.readUInt16BE(at + 2);
    if (marker === 0xda) return undefined; // Image data starts: no table was found.
    if (marker === 0xdb && at + 5 + 64 <= head.length) {
      const precision16 = head[at + 4]! >> 4 === 1;
      let sum = 0;
      for (let i = 0; i < 64; i++) {
        sum += precision16 ? head.readUInt16BE(at + 5 + i * 2) : head[at + 5 + i]!;
      }
      let best = 0;
      for (let i = 1; i < SUMS.length; i++) {
        if (Math.abs(SUMS[i]! - sum) < Math.abs(SUMS[best]! - sum)) best = i;
      }
      return best + 1;
    }
    at += 2 + length;
  }
  return undefined;
}

/** Reads a JPEG's header (its tables come before the image data) and estimates its quality. */
export async function jpegQualityOf(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return estimateJpegQuality(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}
