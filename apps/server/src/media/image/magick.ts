import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { MagickFormat as MagickFormatEnum } from '@imagemagick/magick-wasm';
import { AppError } from '../../lib/app-error.js';
import { runWorkerTask } from '../worker-task.js';

export type MagickFormatName = keyof typeof MagickFormatEnum;

/** Node's global, which the server's TypeScript (no DOM library) does not declare. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };
type WasmModule = object;

/**
 * ImageMagick compiled to WebAssembly: no shell, no delegates, no files outside its sandbox. It
 * runs in a worker thread per task (worker-task.ts), never on the event loop: its decoders are
 * plain loops that held every request for seconds on one large BMP, and the memory it took
 * (1.9 GB for 100 MP) was never given back. Ending the worker after each task gives it back;
 * starting one from the compiled module costs a fraction of a second, paid only by the rare
 * formats that need it.
 */
const require = createRequire(import.meta.url);
const MODULE = require.resolve('@imagemagick/magick-wasm');
const WASM = require.resolve('@imagemagick/magick-wasm/magick.wasm');

/**
 * How long the compiled module outlives its last use: it holds some 20–35 MB of
 * machine code for formats most servers see rarely, and compiling again takes under a second.
 */
const KEEP_COMPILED_MS = 60_000;
let compiled: Promise<WasmModule> | undefined;
let forget: NodeJS.Timeout | undefined;
/**
 * The .wasm compiled once (V8 compiles it off the event loop) and handed to each worker:
 * compiling 20 MB in every worker took a second of CPU per task and slowed the server's own
 * thread on a busy machine. Let go once ImageMagick has been idle for KEEP_COMPILED_MS.
 */
function magickModule(): Promise<WasmModule> {
  compiled ??= readFile(WASM).then((bytes) => WebAssembly.compile(bytes));
  compiled.catch(() => (compiled = undefined));
  clearTimeout(forget);
  forget = setTimeout(() => (compiled = undefined), KEEP_COMPILED_MS).unref();
  return compiled;
}

/**
 * The most pixels ImageMagick may decode: with its pixel cache and the copies a decode and a PNG
 * write make, 100 MP took 1.9 GB; this keeps one task near 1 GB. libvips formats keep the
 * general 100 MP limit (pipeline.ts).
 */
export const MAGICK_MAX_PIXELS = 50_000_000;
/** A 50 MP PSD decodes in a few seconds on an idle core; past this the task is stopped. */
const TIME_LIMIT_MS = 60_000;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const m = require(workerData.module);
const { task, format, target, bytes, maxPixels } = workerData;
const answer = (data) => {
  const result = new Uint8Array(data);
  parentPort.postMessage({ result }, [result.buffer]);
};
m.initializeImageMagick(workerData.wasm).then(() => {
  m.ResourceLimits.width = 16384n;
  m.ResourceLimits.height = 16384n;
  m.ResourceLimits.area = BigInt(maxPixels);
  m.ResourceLimits.listLength = 64n;
  // Its pixel cache may not spill to "disk", which in WebAssembly is memory too.
  m.ResourceLimits.disk = 0n;
  const settings = new m.MagickReadSettings({ format: m.MagickFormat[format] });
  // The header first: an image over the limit is refused before a pixel is decoded.
  const info = m.MagickImageInfo.create(bytes, settings);
  if (info.width * info.height > maxPixels)
    return parentPort.postMessage({ error: 'over the pixel limit', code: 'image_too_large' });
  m.ImageMagick.read(bytes, settings, (image) => {
    if (task === 'decode') return image.write(m.MagickFormat.Png, answer);
    // Icons are at most 256×256.
    if ((target === 'Ico' || target === 'Cur') && (image.width > 256 || image.height > 256))
      image.resize(256, 256);
    return image.write(m.MagickFormat[target], answer);
  });
}).catch((err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
`;

export const magickTooLarge = () =>
  new AppError(
    422,
    'image_too_large',
    `The image is larger than ${MAGICK_MAX_PIXELS / 1_000_000} megapixels, the most this format is read at`,
  );

async function inWorker(
  data: { task: 'decode' | 'encode'; format: MagickFormatName; target?: MagickFormatName },
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<Buffer> {
  try {
    const result = await runWorkerTask<Uint8Array>(
      WORKER,
      { ...data, bytes, module: MODULE, wasm: await magickModule(), maxPixels: MAGICK_MAX_PIXELS },
      { signal, timeoutMs: TIME_LIMIT_MS, heapMb: 256 },
    );
    return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
  } catch (err) {
    if ((err as { code?: string }).code === 'image_too_large') throw magickTooLarge();
    throw err;
  }
}

/** The version line's start in the .wasm's data: what `Magick.imageMagickVersion` returns. */
const VERSION_LINE = Buffer.from('ImageMagick ');
const CHUNK = 64 * 1024;

/**
 * ImageMagick's version line (for /api/health), read from the .wasm's data, a chunk at a time.
 * Starting ImageMagick to ask it (a worker compiling 15 MB of WebAssembly, the bytes read and
 * copied for it) left some 20–40 MB of freed memory in the idle server for seconds after
 * start-up, for a line the file holds as text. The formats that need ImageMagick start it.
 */
export async function magickVersion(): Promise<string> {
  const file = await open(WASM);
  try {
    const buffer = Buffer.alloc(CHUNK + 256);
    let kept = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, kept, CHUNK);
      const end = kept + bytesRead;
      for (let at = buffer.indexOf(VERSION_LINE); at !== -1 && at < end;) {
        const stop = buffer.indexOf(0, at);
        const line = buffer.toString('latin1', at, stop === -1 || stop > end ? end : stop);
        // A match cut by the chunk's end is read again whole with the next chunk.
        if (/^ImageMagick \d+\.\d+\.\d+\S* /.test(line) && stop !== -1 && stop < end) return line;
        if (stop === -1 || stop >= end) break;
        at = buffer.indexOf(VERSION_LINE, at + 1);
      }
      if (bytesRead === 0) throw new Error('no ImageMagick version in its .wasm');
      // The last 256 bytes go first in the next chunk: a line that straddles two is read whole.
      kept = Math.min(end, 256);
      buffer.copy(buffer, 0, end - kept, end);
    }
  } finally {
    await file.close();
  }
}

/**
 * Decodes a format sharp cannot read (bmp, ico, psd, ...) to PNG bytes. ICO/CUR hold several
 * sizes; the first frame read is the largest one ImageMagick picked. Callers hold an image slot.
 */
export function decodeToPng(bytes: Uint8Array, format: MagickFormatName, signal?: AbortSignal) {
  return inWorker({ task: 'decode', format }, bytes, signal);
}

/** Encodes PNG bytes as a format only ImageMagick writes (bmp, ico, pdf, ...). */
export function encodeFromPng(png: Buffer, format: MagickFormatName, signal?: AbortSignal) {
  return inWorker({ task: 'encode', format: 'Png', target: format }, png, signal);
}
