import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MagickFormat as MagickFormatEnum } from '@imagemagick/magick-wasm';

type MagickModule = typeof import('@imagemagick/magick-wasm');

let ready: Promise<MagickModule> | undefined;

/** ImageMagick compiled to WebAssembly: no shell, no delegates, no files outside its sandbox. */
export function magick(): Promise<MagickModule> {
  ready ??= (async () => {
    const module = await import('@imagemagick/magick-wasm');
    const require = createRequire(import.meta.url);
    await module.initializeImageMagick(
      await readFile(require.resolve('@imagemagick/magick-wasm/magick.wasm')),
    );
    // Bound what a hostile file can make it allocate.
    module.ResourceLimits.width = 16_384n;
    module.ResourceLimits.height = 16_384n;
    module.ResourceLimits.area = 100_000_000n;
    return module;
  })();
  return ready;
}

/** Decodes a format sharp cannot read (bmp, ico, psd, ...) to PNG bytes. */
export async function decodeToPng(
  bytes: Uint8Array,
  format: keyof typeof MagickFormatEnum,
): Promise<Buffer> {
  const m = await magick();
  const settings = new m.MagickReadSettings({ format: m.MagickFormat[format] });
  return m.ImageMagick.read(bytes, settings, (image) => {
    // ICO/CUR hold several sizes; the first frame read is the largest one ImageMagick picked.
    return image.write(m.MagickFormat.Png, (data) => Buffer.from(data));
  });
}

/** Encodes PNG bytes as a format only ImageMagick writes (bmp, ico, pdf, ...). */
export async function encodeFromPng(
  png: Buffer,
  format: keyof typeof MagickFormatEnum,
): Promise<Buffer> {
  const m = await magick();
  return m.ImageMagick.read(png, (image) => {
    if (format === 'Ico' || format === 'Cur') {
      // Icons are at most 256×256.
      if (image.width > 256 || image.height > 256) image.resize(256, 256);
    }
    return image.write(m.MagickFormat[format], (data) => Buffer.from(data));
  });
}
