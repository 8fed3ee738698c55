import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import type { EngineStatus } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import { runBounded } from '../bounded-process.js';
import { decodedPixels, heifProfiles, HeifUnmeasured } from './heif-coded.js';
import { imageTooLarge, MAX_INPUT_PIXELS } from './pipeline.js';

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
/**
 * Address space each tool may map (prlimit): a 12 MP photo decodes in about 110 MB and encodes
 * in about 250 MB, 100 MP in under 1 GB; a hostile stream fails at the bound, not at the
 * machine's memory. x265 maps more (a thread pool per core), so the encoder gets more.
 */
const DECODE_MEMORY = 2 * 1024 ** 3;
const ENCODE_MEMORY = 4 * 1024 ** 3;

/** A libheif tool, within the time limit, its address space bounded when `memory` is given. */
const run = (command: string, args: string[], signal?: AbortSignal, memory?: number) =>
  runBounded(command, args, { signal, memoryBytes: memory, timeoutMs: TIME_LIMIT_MS });

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

/** The top-level images heif-info lists, in heif-convert's order, and which is the primary. */
function heifImages(info: string) {
  const images = [...info.matchAll(/^image: (\d+)x(\d+) \(id=(\d+)\)(, primary)?/gm)].map((m) => ({
    pixels: Number(m[1]) * Number(m[2]),
    id: Number(m[3]),
    primary: m[4] !== undefined,
  }));
  return {
    images,
    primary: Math.max(
      0,
      images.findIndex((image) => image.primary),
    ),
  };
}

/** What decoding the file really takes (see heif-coded.ts), or our error for one it cannot read. */
function measure(file: Buffer) {
  try {
    return decodedPixels(file);
  } catch (err) {
    if (err instanceof HeifUnmeasured)
      throw new AppError(
        415,
        'unsupported_media_type',
        'HEIF images are read when coded in HEVC (HEIC); this one is coded otherwise',
      );
    throw invalid();
  }
}

/**
 * Decodes a HEIC/HEIF file's primary image to PNG bytes (alpha kept). heif-convert decodes every
 * top-level image, not only the primary one, so the sizes of all of them are read first and held
 * together to the general pixel limit (a 47 KB grid declares 268 MP; a file's second image can be
 * far larger than its first). The sizes heif-info reports are only what the file declares, so
 * what it really makes libheif decode is counted from its coded streams and grids too, and held
 * to the same limit (heif-coded.ts). Callers hold an image slot; `signal` ends the tool.
 */
export async function decodeHeif(path: string, signal?: AbortSignal): Promise<Buffer> {
  if (!(await libheifStatus()).available)
    throw new AppError(415, 'unsupported_media_type', 'HEIC/HEIF is not readable on this server');
  // Counted before any libheif tool runs: heif-info decodes every top-level image too.
  const file = await readFile(path);
  const real = measure(file);
  if (real.coded > MAX_INPUT_PIXELS || real.canvas > MAX_INPUT_PIXELS) throw imageTooLarge();
  const info = await run('heif-info', [path], signal, DECODE_MEMORY);
  const { images, primary } = heifImages(info.stdout);
  if (info.failed || images.length === 0) throw invalid();
  // An image libheif found that the count did not: its decoding was not counted.
  if (images.some((image) => !real.topLevel.includes(image.id))) throw invalid();
  if (images.reduce((sum, image) => sum + image.pixels, 0) > MAX_INPUT_PIXELS)
    throw imageTooLarge();
  const { profile, withoutProfiles } = heifProfiles(file, images[primary]!.id);
  const source = beside(path, 'heic');
  const png = beside(path, 'png');
  // With several images heif-convert numbers its outputs: name-1.png, name-2.png, ...
  const outputs =
    images.length === 1 ? [png] : images.map((_, i) => png.replace(/\.png$/, `-${i + 1}.png`));
  try {
    await writeFile(source, withoutProfiles);
    const decoded = await run(DECODER, ['--quiet', source, png], signal, DECODE_MEMORY);
    // heif-convert exits 0 when it cannot write an image: the file's absence says so.
    const written = decoded.failed
      ? undefined
      : await readFile(outputs[primary]!).catch(() => undefined);
    if (!written) throw invalid();
    return profile ? await withIccChunk(written, profile) : written;
  } finally {
    await Promise.all([source, ...outputs].map((output) => rm(output, { force: true })));
  }
}

/**
 * The PNG with `profile` in an iCCP chunk right after its header (the chunk must come before the
 * image data). libvips reads it as the image's profile, whatever libpng thinks of the profile.
 */
async function withIccChunk(png: Buffer, profile: Buffer): Promise<Buffer> {
  // Compressed on libuv's threads: a file's profile may be as large as the file.
  const compressed = await promisify(deflate)(profile);
  const data = Buffer.concat([Buffer.from('ICC profile\0\0', 'latin1'), compressed]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('iCCP', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // The signature (8 bytes), then IHDR: its length, type, 13 bytes of fields and its CRC.
  const afterHeader = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}

/**
 * Encodes PNG bytes already on disk as HEIC (HEVC) at `path`; x265's "fast" preset, at libheif's
 * 0–100 `quality`. A colour profile in the PNG is carried into the HEIC.
 */
export async function encodeHeif(
  pngPath: string,
  path: string,
  signal?: AbortSignal,
  quality = 60,
) {
  const encoded = await run(
    ENCODER,
    ['-q', String(quality), '-p', 'preset=fast', pngPath, '-o', path],
    signal,
    ENCODE_MEMORY,
  );
  if (encoded.failed)
    throw new AppError(500, 'processing_failed', 'The HEIC encoder failed on this image');
}
