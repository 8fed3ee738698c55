import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EngineStatus } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';

/**
 * HEIC/HEIF through Debian's libheif command-line tools (package libheif-examples):
 * heif-convert decodes, heif-enc encodes with x265. sharp's own libvips reads HEIF only for
 * AVIF (no HEVC decoder in its prebuilt binaries), so these are the real engine.
 */
const DECODER = 'heif-convert';
const ENCODER = 'heif-enc';
/**
 * A 12 MP photo decodes in a few seconds on one idle core and encodes in about 15 (x265
 * "fast"); past two minutes the tool is stopped.
 */
const TIME_LIMIT_MS = 120_000;
/** The largest side heif-info may report before anything is decoded (a pixel bomb's shape). */
const MAX_SIDE = 16_384;

interface Output {
  stdout: string;
  stderr: string;
  failed: boolean;
}

/** Runs a tool with an argument array (never a shell), time-limited, output kept either way. */
function run(command: string, args: string[], signal?: AbortSignal): Promise<Output> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: TIME_LIMIT_MS, maxBuffer: 1024 * 1024, signal, windowsHide: true },
      (err, stdout, stderr) => resolve({ stdout, stderr, failed: Boolean(err) }),
    );
  });
}

let status: Promise<EngineStatus> | undefined;

/** Whether both tools are installed and the encoder has an HEVC codec; looked up once. */
export function libheifStatus(): Promise<EngineStatus> {
  status ??= (async () => {
    const [help, encoders] = await Promise.all([
      run(DECODER, ['--help']),
      run(ENCODER, ['--list-encoders']),
    ]);
    const version = `${help.stdout}${help.stderr}`.match(/libheif version: (\S+)/)?.[1];
    const hevc = /HEIC encoders:\s*\n- /.test(encoders.stdout);
    return version && hevc ? { available: true, version } : { available: false, version: null };
  })();
  return status;
}

const invalid = () =>
  new AppError(422, 'invalid_image', 'The file is damaged or is not a valid image (HEIC)');

/** A temp file beside `near` (the request's or job's own directory), removed by the caller. */
const beside = (near: string, extension: string) =>
  join(dirname(near), `heif-${randomBytes(6).toString('hex')}.${extension}`);

/**
 * Decodes a HEIC/HEIF file's primary image to PNG bytes (alpha kept). Its size is read first
 * and held to MAX_SIDE so a hostile header cannot make the decoder allocate gigabytes.
 */
export async function decodeHeif(path: string, signal?: AbortSignal): Promise<Buffer> {
  if (!(await libheifStatus()).available)
    throw new AppError(415, 'unsupported_media_type', 'HEIC/HEIF is not readable on this server');
  const info = await run('heif-info', [path], signal);
  const size = info.stdout.match(/image: (\d+)x(\d+)/);
  if (info.failed || !size) throw invalid();
  if (Math.max(Number(size[1]), Number(size[2])) > MAX_SIDE)
    throw new AppError(
      422,
      'image_too_large',
      `The image is larger than ${MAX_SIDE} pixels a side`,
    );
  const png = beside(path, 'png');
  try {
    const decoded = await run(DECODER, [path, png], signal);
    if (decoded.failed) throw invalid();
    return await readFile(png);
  } finally {
    await rm(png, { force: true });
  }
}

/** Encodes PNG bytes already on disk as HEIC (HEVC) at `path`; x265's "fast" preset. */
export async function encodeHeif(pngPath: string, path: string, signal?: AbortSignal) {
  const encoded = await run(
    ENCODER,
    ['-q', '60', '-p', 'preset=fast', pngPath, '-o', path],
    signal,
  );
  if (encoded.failed)
    throw new AppError(500, 'processing_failed', 'The HEIC encoder failed on this image');
}
