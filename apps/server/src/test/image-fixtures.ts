import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Real image files made on the fly, good and hostile, for the image tool tests. */
export const solid = (width: number, height: number, alpha = 1) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha } } });

export const pngBytes = (width = 40, height = 30) => solid(width, height).png().toBuffer();
export const transparentPng = () => solid(32, 32, 0.3).png().toBuffer();
export const png16 = () => solid(24, 16).toColourspace('rgb16').png().toBuffer();
export const cmykJpeg = () => solid(30, 20).toColourspace('cmyk').jpeg().toBuffer();
/** 40×20 pixels stored, EXIF orientation 6: shown as 20×40. */
export const rotatedJpeg = () => solid(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();

export async function truncatedJpeg() {
  const full = await sharp({
    create: {
      width: 400,
      height: 300,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  return full.subarray(0, Math.floor(full.length / 2));
}

/** A valid tiny PNG whose header claims 30000×30000 pixels (a decompression bomb's shape). */
export async function bombPng() {
  const png = Buffer.from(await pngBytes(1, 1));
  // IHDR data starts at byte 16: width, height; its CRC covers type + data (bytes 12..29).
  png.writeUInt32BE(30_000, 16);
  png.writeUInt32BE(30_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

export const textAsPng = () => Buffer.from('this is not an image, whatever its name says\n');

export const svgWithEntity = () =>
  Buffer.from(
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><text y="10">&xxe;</text></svg>',
  );

/** A script, a link and references inside the file: all harmless once drawn. */
export const svgWithScript = () =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="10">' +
      '<script>alert(1)</script><a href="https://example.com/"><rect id="r" width="20" height="10" fill="red"/></a>' +
      '<use xlink:href="#r"/><rect width="2" height="2" fill="url(#r)"/></svg>',
  );

/** Whether ffmpeg is installed (the video outputs and the GIF fixture need it). */
export const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** An animated GIF with 5 frames, from ffmpeg's test source. */
export function animatedGif(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'refract-gif-'));
  try {
    const out = join(dir, 'a.gif');
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=32x24:rate=5',
      '-t',
      '1',
      out,
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A photo-like JPEG, as a phone saves one: soft shapes and texture at several scales with
 * sensor-like grain, at quality 92. 2000×1500 (3 MP) is about 1.3 MB; 4000×3000 (12 MP) about
 * 5.5 MB, the size of a real phone photo.
 */
export async function photoJpeg(width = 2000, height = 1500): Promise<Buffer> {
  const noise = (w: number, h: number, sigma: number) =>
    sharp({
      create: {
        width: w,
        height: h,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma },
      },
    })
      .png()
      .toBuffer();
  const shapes = await noise(Math.round(width / 16), Math.round(height / 16), 70);
  const texture = await sharp(await noise(Math.round(width / 4), Math.round(height / 4), 40))
    .resize(width, height)
    .png()
    .toBuffer();
  const grain = await noise(width, height, 10);
  return sharp(shapes)
    .resize(width, height, { kernel: 'cubic' })
    .composite([
      { input: texture, blend: 'overlay' },
      { input: grain, blend: 'overlay' },
    ])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Whether Debian's gifsicle is installed (lossy GIF compression). */
export const hasGifsicle = (() => {
  try {
    execFileSync('gifsicle', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

/** A real animated GIF, already optimised (test/files/README.md). */
export const realAnimatedGif = () =>
  readFileSync(fileURLToPath(new URL('./files/animated.gif', import.meta.url)));

/** Whether Debian's libheif tools (heif-enc with x265, heif-convert) are installed. */
export const hasLibheif = (() => {
  try {
    return execFileSync('heif-enc', ['--list-encoders']).toString().includes('x265');
  } catch {
    return false;
  }
})();

/**
 * The sRGB profile most photos carry: HP and Microsoft's "sRGB IEC61966-2.1" of 1998 (3144
 * bytes). libpng knows it as a "known incorrect sRGB profile" (its white point is D65, not the
 * PCS's D50) and refuses to write it into a PNG. ImageMagick's built-in `wizard:` image (Debian's
 * imagemagick) carries it.
 */
export function hpSrgbProfile(): Buffer {
  return execFileSync('convert', ['wizard:', 'icc:-'], { maxBuffer: 1024 * 1024 });
}

/**
 * An iPhone-like HEIC photo (HEVC, heic brand), made with libheif's own encoder; with `profile`
 * it embeds that ICC colour profile in a `colr prof` box (heif-enc copies the JPEG's profile).
 */
export async function heicPhoto(
  width = 640,
  height = 480,
  profile?: 'srgb' | 'p3' | 'hp-srgb',
): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'refract-heic-'));
  try {
    const source = join(dir, 'IMG_0001.jpg');
    const photo = sharp(await photoJpeg(width, height));
    let named: string | undefined = profile;
    if (profile === 'hp-srgb') writeFileSync((named = join(dir, 'hp-srgb.icc')), hpSrgbProfile());
    await (named ? photo.withIccProfile(named) : photo).jpeg({ quality: 95 }).toFile(source);
    const out = join(dir, 'IMG_0001.heic');
    execFileSync('heif-enc', ['-q', '50', '-p', 'preset=ultrafast', source, '-o', out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A HEIC with one top-level image per PNG given, the first the primary (heif-enc). */
export async function heicOf(sizes: [number, number][]): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'refract-heic-'));
  try {
    const inputs = await Promise.all(
      sizes.map(async ([width, height], i) => {
        const path = join(dir, `${i}.png`);
        await sharp({
          create: { width, height, channels: 3, background: { r: 40 * i, g: 120, b: 200 } },
        })
          .png()
          .toFile(path);
        return path;
      }),
    );
    execFileSync('heif-enc', [
      '-q',
      '50',
      '-p',
      'preset=ultrafast',
      ...inputs,
      '-o',
      `${dir}/out.heic`,
    ]);
    return readFileSync(`${dir}/out.heic`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
