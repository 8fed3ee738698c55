import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageFormat } from '@refract/contracts';
import type { Sharp } from 'sharp';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';
import { runFfmpeg } from '../media/av/run-ffmpeg.js';
import { OUTPUTS } from '../media/image/formats.js';
import { toCursor } from '../media/image/cursor.js';
import { encodeHeif } from '../media/image/heif.js';
import { encodeFromPng } from '../media/image/magick.js';
import { inImageSlot } from '../media/image/slots.js';
import { traceToSvg } from '../media/image/trace.js';

const MAGICK_NAMES = {
  bmp: 'Bmp',
  ico: 'Ico',
  cur: 'Cur',
  pcx: 'Pcx',
  tga: 'Tga',
  psd: 'Psd',
  dds: 'Dds',
  eps: 'Eps',
  pdf: 'Pdf',
  ppm: 'Ppm',
  pgm: 'Pgm',
  pbm: 'Pbm',
} as const;

/** Formats that keep an animated input's frames. */
export const ANIMATED_OUTPUTS = new Set<ImageFormat>(['gif', 'webp', 'mp4', 'webm', 'mov']);

/** ffmpeg settings per video container; even dimensions because yuv420p needs them. */
const VIDEO_ARGS: Record<'mp4' | 'webm' | 'mov', string[]> = {
  mp4: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
  mov: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
  webm: [
    ...['-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', '-b:v', '0', '-crf', '32'],
    // libvpx's default (cpu-used 0) took two minutes on one large still: the quick good preset.
    ...['-deadline', 'good', '-cpu-used', '5', '-row-mt', '1'],
  ],
};

/**
 * The largest side of a video made from an image. A 4000×4000 PNG as a full-size clip ran ffmpeg
 * at 3.3 GB; a still or a GIF needs no more than full HD to look right on a screen.
 */
export const VIDEO_MAX_SIDE = 1920;

/** A still image becomes a clip of this many seconds at this frame rate. */
const STILL_SECONDS = 3;
const STILL_FPS = 25;

/**
 * How long ffmpeg plays an animation: the sum of its frame delays (sharp reads them in ms). A
 * delay under 20 ms, or none, counts as 100 ms, as ffmpeg's GIF reader plays it.
 */
function animationSeconds({ delay, pages = 1 }: { delay?: number[]; pages?: number }) {
  let ms = 0;
  for (let page = 0; page < pages; page += 1) {
    const frame = delay?.[page] ?? 0;
    ms += frame < 20 ? 100 : frame;
  }
  return ms / 1000;
}

/** Writes `pipeline` as `format` to `path`, through sharp, ImageMagick, potrace or ffmpeg. */
export async function writeImage(
  pipeline: Sharp,
  format: ImageFormat,
  path: string,
  {
    animated,
    config,
    workDir,
    signal,
  }: { animated: boolean; config: Config; workDir: string; signal?: AbortSignal },
): Promise<void> {
  const { engine } = OUTPUTS[format];
  if (engine === 'sharp') {
    const target = format === 'jpg' ? 'jpeg' : format;
    // JPEG has no alpha: put transparent pixels on white rather than black.
    const flat = target === 'jpeg' ? pipeline.flatten({ background: '#ffffff' }) : pipeline;
    await inImageSlot(() => flat.toFormat(target as 'jpeg').toFile(path), signal);
    return;
  }
  if (engine === 'magick') {
    const png = await inImageSlot(() => pipeline.png().toBuffer(), signal);
    const target = MAGICK_NAMES[format as keyof typeof MAGICK_NAMES];
    const encoded = await inImageSlot(() => encodeFromPng(png, target, signal), signal);
    // ImageMagick writes a cursor as an icon (type 1): made a real one here.
    await writeFile(path, format === 'cur' ? toCursor(encoded) : encoded);
    return;
  }
  if (engine === 'libheif') {
    const png = join(workDir, 'heif-source.png');
    try {
      await inImageSlot(() => pipeline.png().toFile(png), signal);
      await inImageSlot(() => encodeHeif(png, path, signal), signal);
    } finally {
      await rm(png, { force: true });
    }
    return;
  }
  if (engine === 'potrace') {
    await writeFile(path, await traceToSvg(pipeline, signal));
    return;
  }
  if (engine === 'ffmpeg') {
    const maxSeconds = config.media.maxDurationSeconds;
    if (animated) {
      // Frame delays are the clip's length: a few hundred bytes of GIF can hold frames of 655 s
      // each, which ffmpeg plays out in full. Refused before anything is encoded.
      const seconds = animationSeconds(await inImageSlot(() => pipeline.metadata(), signal));
      if (seconds > maxSeconds)
        throw new AppError(
          422,
          'media_too_large',
          `This animation runs ${Math.round(seconds)} s: a video may run at most ${maxSeconds} s`,
        );
    }
    const frames = join(workDir, animated ? 'frames.gif' : 'frame.png');
    const bounded = pipeline.resize(VIDEO_MAX_SIDE, VIDEO_MAX_SIDE, {
      fit: 'inside',
      withoutEnlargement: true,
    });
    await inImageSlot(() => (animated ? bounded.gif() : bounded.png()).toFile(frames), signal);
    const evenSize = 'scale=trunc(iw/2)*2:trunc(ih/2)*2';
    // An animation keeps its own timing. A still image becomes a short clip (never past the length
    // limit), its one frame decoded and converted once and then repeated by the loop filter: the
    // same file as reading the image again for every frame (`-loop 1`), in less than half the CPU
    // (a 1920² frame: 4.6 s of CPU instead of 10.8).
    const stillFrames = Math.max(1, Math.round(Math.min(STILL_SECONDS, maxSeconds) * STILL_FPS));
    const filters = animated
      ? [evenSize]
      : [evenSize, 'format=yuv420p', `loop=loop=${stillFrames - 1}:size=1:start=0`];
    const input = animated ? ['-i', frames] : ['-framerate', String(STILL_FPS), '-i', frames];
    // In an image slot like every other step, stopped when the client leaves.
    await inImageSlot(
      () =>
        runFfmpeg(
          config.engines.ffmpeg,
          [...input, '-vf', filters.join(','), ...VIDEO_ARGS[format as 'mp4'], '-an', path],
          { signal },
        ),
      signal,
    );
    return;
  }
  throw new Error(`No engine writes ${format}`);
}
