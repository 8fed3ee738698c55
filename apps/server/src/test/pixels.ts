import sharp from 'sharp';

/** Decoded RGBA pixels of an encoded image, for pixel-level checks on tool output. */
export async function rgba(image: Buffer) {
  const { data, info } = await sharp(image)
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    at(x: number, y: number) {
      const i = (y * info.width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

export type Pixels = Awaited<ReturnType<typeof rgba>>;

/** The bounding box of pixels that differ between two same-size images, or null. */
export function changedBox(a: Pixels, b: Pixels) {
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < a.height; y += 1) {
    for (let x = 0; x < a.width; x += 1) {
      const i = (y * a.width + x) * 4;
      if (a.data.compare(b.data, i, i + 4, i, i + 4) === 0) continue;
      box ??= { left: x, top: y, right: x, bottom: y };
      box.left = Math.min(box.left, x);
      box.top = Math.min(box.top, y);
      box.right = Math.max(box.right, x);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return box;
}

/** Share of pixels in an RGBA image whose alpha is over half (ink of rendered text). */
export function inkCoverage(pixels: Pixels): number {
  let ink = 0;
  for (let i = 3; i < pixels.data.length; i += 4) if (pixels.data[i]! > 127) ink += 1;
  return ink / (pixels.width * pixels.height);
}

/**
 * A photo-like image: noise, so that a blur or an overlay always changes pixels. The same
 * noise every time (a seeded generator; sharp's own noise is new on each call): a test that
 * measures what a blur leaves of it gets one answer, not one that varies from run to run.
 */
export function noisePng(width: number, height: number) {
  let seed = 0x9e3779b9;
  const uniform = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) {
    // Gaussian around 128 with sigma 50 (Box-Muller), as sharp's noise was.
    const gaussian = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    pixels[i] = Math.max(0, Math.min(255, Math.round(128 + 50 * gaussian)));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
