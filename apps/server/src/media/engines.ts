import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { magickVersion } from './image/magick.js';
import type { EngineStatus, Health } from '@refract/contracts';
import { faceModelStatus } from './faces/face-detector.js';
import { segmentationModelStatus } from './segmentation/person-segmenter.js';
import { superResolutionStatus } from './upscale/super-resolution.js';
import { libheifStatus } from './image/heif.js';
import { PROBE_TRIES_MS } from './probe-tries.js';

export type Engines = Health['engines'];

const missing: EngineStatus = { available: false, version: null };

/**
 * The first line a `--version`-style probe prints, run with an argument array (never a shell);
 * null when the program is not there or never answered in `tries`.
 */
async function firstLineOf(
  command: string,
  args: string[],
  tries = PROBE_TRIES_MS,
): Promise<string | null> {
  for (const timeout of tries) {
    const answer = await new Promise<{ line: string | null; absent: boolean }>((resolve) => {
      execFile(command, args, { timeout, windowsHide: true }, (err, stdout) => {
        const absent = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
        resolve({ line: err ? null : stdout.split('\n')[0]?.trim() || null, absent });
      });
    });
    if (answer.line || answer.absent) return answer.line;
  }
  return null;
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

async function detectFfmpeg(path: string, tries?: number[]): Promise<EngineStatus> {
  const line = await firstLineOf(path, ['-hide_banner', '-version'], tries);
  const version = line?.match(/^ffmpeg version (\S+)/)?.[1];
  return version ? { available: true, version } : missing;
}

async function detectChromium(path: string, tries?: number[]): Promise<EngineStatus> {
  const line = await firstLineOf(path, ['--version'], tries);
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

export interface EnginePaths {
  ffmpeg: string;
  chromium: string;
  /** Each probe's tries (PROBE_TRIES_MS unless set). */
  probeTriesMs?: number[];
}

/** Looks for every engine at start-up. A missing engine is reported, never fatal. */
export async function detectEngines(paths: EnginePaths): Promise<Engines> {
  const [sharp, magick, ffmpeg, chromium, libheif] = await Promise.all([
    detectSharp(),
    detectMagick(),
    detectFfmpeg(paths.ffmpeg, paths.probeTriesMs),
    detectChromium(paths.chromium, paths.probeTriesMs),
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

/** Whether a program is there to run (installed, executable), answering or not. */
const installed = (command: string) => {
  try {
    accessSync(resolveExecutable(command), constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The engines that are installed but did not answer their probe: such a process is not ready
 * (health-routes.ts), while one built without an engine is.
 */
type ProgramEngine = 'ffmpeg' | 'chromium';

export function silentEngines(engines: Engines, paths: EnginePaths): ProgramEngine[] {
  return (['ffmpeg', 'chromium'] as ProgramEngine[]).filter(
    (name) => !engines[name].available && installed(paths[name]),
  );
}

/**
 * Probes again, every `everyMs`, each engine that is installed but did not answer, and puts
 * what it finds in `engines` itself (every tool reads it there). Returns the stop.
 */
export function keepProbingSilentEngines(engines: Engines, paths: EnginePaths, everyMs = 60_000) {
  const detect = { ffmpeg: detectFfmpeg, chromium: detectChromium };
  let probing = false;
  const timer = setInterval(async () => {
    if (probing) return;
    probing = true;
    try {
      for (const name of silentEngines(engines, paths))
        Object.assign(engines[name], await detect[name](paths[name], paths.probeTriesMs));
    } finally {
      probing = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
