import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { magickVersion } from './image/magick.js';
import type { EngineStatus, Health } from '@refract/contracts';
import { faceModelStatus } from './faces/face-detector.js';
import { segmentationModelStatus } from './segmentation/person-segmenter.js';
import { superResolutionStatus } from './upscale/super-resolution.js';
import { libheifStatus } from './image/heif.js';

export type Engines = Health['engines'];

const missing: EngineStatus = { available: false, version: null };

/** Runs `command --version`-style probes with an argument array (never a shell) and a time limit. */
function firstLineOf(command: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(null);
      resolve(stdout.split('\n')[0]?.trim() || null);
    });
  });
}

async function detectSharp(): Promise<Engines['sharp']> {
  try {
    const { default: sharp } = await import('sharp');
    const versions = sharp.versions as { sharp?: string; vips: string };
    return { available: true, version: versions.sharp ?? null, libvips: versions.vips };
  } catch {
    return { ...missing, libvips: null };
  }
}

async function detectMagick(): Promise<EngineStatus> {
  try {
    const version = await magickVersion();
    return { available: true, version: version.split(' ')[1] ?? null };
  } catch {
    return missing;
  }
}

async function detectFfmpeg(path: string): Promise<EngineStatus> {
  const line = await firstLineOf(path, ['-hide_banner', '-version']);
  const version = line?.match(/^ffmpeg version (\S+)/)?.[1];
  return version ? { available: true, version } : missing;
}

async function detectChromium(path: string): Promise<EngineStatus> {
  const line = await firstLineOf(path, ['--version']);
  const version = line?.match(/(\d+\.\d+\.\d+\.\d+)/)?.[1];
  return version ? { available: true, version } : missing;
}

/** An absolute path for a command name, looked up on PATH like a shell would (but without one). */
export function resolveExecutable(command: string): string {
  if (command.includes('/')) return command;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return command;
}

/** Looks for every engine once, at start-up. A missing engine is reported, never fatal. */
export async function detectEngines(paths: { ffmpeg: string; chromium: string }): Promise<Engines> {
  const [sharp, magick, ffmpeg, chromium, libheif] = await Promise.all([
    detectSharp(),
    detectMagick(),
    detectFfmpeg(paths.ffmpeg),
    detectChromium(paths.chromium),
    libheifStatus(),
  ]);
  return {
    sharp,
    magick,
    ffmpeg,
    chromium,
    faces: faceModelStatus(),
    segmentation: segmentationModelStatus(),
    superResolution: superResolutionStatus(),
    libheif,
  };
}
