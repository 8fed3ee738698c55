import { createRequire } from 'node:module';
import type { EngineStatus } from '@refract/contracts';
import { RenderTurns, type Turn } from '../html/render-turns.js';
import { imageSlots } from '../image/slots.js';
import { writeVipsRgb, type WriteRows } from '../image/vips-file.js';
import { MODEL_WORKER_SERVE, ModelWorker, type Runtime } from '../model-worker.js';
import { TFJS_WORKER_START, tfjsPaths } from '../tfjs-wasm.js';

/**
 * Super-resolution with UpscalerJS's ESRGAN models (MIT, weights inside their npm packages:
 * nothing fetched at run time): "slim" (RDN, 0.2 M weights) at ×2, "thick" (RRDN, 7 M) at ×4,
 * the smallest of each factor that meets the bench's quality goal (decision 041). They run on
 * onnxruntime's native CPU runtime in a kept worker thread; the TF.js WebAssembly path they
 * ran on before stays for the bench and the test that both agree (RDN models only). One
 * inference at a time per process; a tile is the unit of work, so a request's abort is
 * honoured between tiles.
 */
const require = createRequire(import.meta.url);
export type Variant = 'slim' | 'medium' | 'thick';
export type UpscaleFactor = 2 | 4;
/** The tool's model per factor; the bench runs every variant to compare. */
const TOOL_VARIANT: Record<UpscaleFactor, Variant> = { 2: 'slim', 4: 'thick' };
/** The pixel range each was trained on: the RDN models 0–255, the RRDN model 0–1. */
const RANGE: Record<Variant, 1 | 255> = { slim: 255, medium: 255, thick: 1 };
const MODEL_VERSION = 'esrgan-slim ×2, esrgan-thick ×4 (1.0.0)';

/** Tiles waiting at most (one per upscale under way: an upscale sends its tiles one by one). */
export const MODEL_PLACES = 4;

/**
 * The model's places, shared fairly between users (as HTML renders are): a free place goes to
 * the waiting upscale of the user with the fewest running, and a user has one upscale in
 * flight. The model runs one tile at a time, taking the tiles of the upscales under way in
 * turn, so a user's second upscale at once would not finish their work sooner: it would only
 * take a share of the model from someone else. As many places as the worker lets tiles wait,
 * so an upscale that has its turn is never refused by the worker's own bound.
 */
const modelTurns = new RenderTurns({ slots: MODEL_PLACES, perUser: 1, retryAfterSeconds: 30 });

/**
 * Waits for `userId`'s turn at the model, to be freed when their upscale is done with it. Upscales
 * are jobs, and the queue already holds a user's next one back while one runs (oneAtATime);
 * the turn is the same rule within this process, for the files of a batch.
 */
export const takeModelTurn = (userId: string, signal?: AbortSignal): Promise<Turn> =>
  modelTurns.take(userId, { signal, wait: true });

/**
 * Each tile's own pixels, and the context read around it so seams do not show (the slim
 * network sees 11 pixels around each of its own). The native runtime takes larger tiles: less
 * context is computed twice, and a tile's fixed cost is spread over more pixels.
 */
export const TILE: Record<Runtime, number> = { onnx: 256, tfjs: 128 };
const CONTEXT = 12;

/** The package's own folder (its exports name no package.json), then its models/xN/. */
function modelDir(scale: UpscaleFactor, variant: Variant) {
  const entry = require.resolve(`@upscalerjs/esrgan-${variant}`);
  return `${entry.slice(0, entry.lastIndexOf('/dist/'))}/models/x${scale}/`;
}

/** Whether the package's weights are there (for /api/health; loads nothing). */
export function superResolutionStatus(): EngineStatus {
  try {
    for (const scale of [2, 4] as const) modelDir(scale, TOOL_VARIANT[scale]);
    return { available: true, version: MODEL_VERSION };
  } catch {
    return { available: false, version: null };
  }
}

/** The TF.js worker: each model loaded on first use, from memory (layers model, 0–255 in and out). */
const TFJS_WORKER = `${MODEL_WORKER_SERVE}${TFJS_WORKER_START}
const { readFileSync } = require('node:fs');
const models = {};
const load = (dir) => (models[dir] ??= (async () => {
  await backend;
  const manifest = JSON.parse(readFileSync(dir + 'model.json', 'utf8'));
  const group = manifest.weightsManifest[0];
  const weights = readFileSync(dir + group.paths[0]);
  return tf.loadLayersModel({
    load: async () => ({
      modelTopology: manifest.modelTopology,
      format: manifest.format,
      weightSpecs: group.weights,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
    }),
  });
})());
serve(async ({ rgb, width, height, model: { dir } }) => {
  const model = await load(dir);
  const output = tf.tidy(() =>
    model.predict(tf.tensor4d(Float32Array.from(rgb), [1, height, width, 3])));
  try {
    const pixels = new Uint8Array(Uint8ClampedArray.from(await output.data()).buffer);
    return { result: pixels, transfer: [pixels.buffer] };
  } finally {
    output.dispose();
  }
});
`;

/**
 * One worker per runtime, whatever the model: each call names its model (its folder and the
 * range it was trained on), so ×2 and ×4 share one thread and one inference runs at a time.
 */
const workers = new Map<Runtime, ModelWorker>();

function getWorker(runtime: Runtime): ModelWorker {
  let worker = workers.get(runtime);
  if (!worker) {
    const options = {
      name: 'Upscaling',
      maxWaiting: MODEL_PLACES,
      heapMb: 1024,
    };
    worker =
      runtime === 'onnx'
        ? new ModelWorker(
            new URL('./onnx-upscale-worker.js', import.meta.url),
            // As many threads as images may be worked on at once: the model is one of them.
            { threads: imageSlots() },
            options,
          )
        : new ModelWorker(TFJS_WORKER, tfjsPaths(), options);
    workers.set(runtime, worker);
  }
  return worker;
}

/** Ends the workers (the bench, shutdown). */
export async function closeSuperResolution() {
  await Promise.all([...workers.values()].map((worker) => worker.close()));
  workers.clear();
}

/** Copies a `width`×`height` window at (x, y) of an RGB image, edges repeated past its border. */
function window(rgb: Buffer, imageWidth: number, imageHeight: number, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 3);
  for (let row = 0; row < box.height; row += 1) {
    const y = Math.min(imageHeight - 1, Math.max(0, box.y + row));
    for (let column = 0; column < box.width; column += 1) {
      const x = Math.min(imageWidth - 1, Math.max(0, box.x + column));
      const from = (y * imageWidth + x) * 3;
      const to = (row * box.width + column) * 3;
      out[to] = rgb[from]!;
      out[to + 1] = rgb[from + 1]!;
      out[to + 2] = rgb[from + 2]!;
    }
  }
  return out;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface UpscaleOptions {
  signal?: AbortSignal;
  onTile?(done: number, total: number): void;
  variant?: Variant;
  runtime?: Runtime;
}

/**
 * Upscales raw RGB pixels `scale` times, tile by tile (TILE pixels plus CONTEXT around each), and
 * hands each row of tiles to `write` as whole rows of the result, top to bottom (the rows' memory
 * is used again once `write` resolves), so memory stays bounded by a band whatever the image;
 * `onTile` hears how far it is, and an aborted `signal` stops before the next tile.
 */
async function superResolveBands(
  rgb: Buffer,
  width: number,
  height: number,
  scale: UpscaleFactor,
  write: WriteRows,
  { signal, onTile, variant = TOOL_VARIANT[scale], runtime = 'onnx' }: UpscaleOptions,
): Promise<void> {
  if (runtime === 'tfjs' && RANGE[variant] !== 255)
    throw new Error(`the TF.js path runs the RDN models only, not ${variant}`);
  const model = getWorker(runtime);
  const weights = { dir: modelDir(scale, variant), range: RANGE[variant] };
  const tile = TILE[runtime];
  const outWidth = width * scale;
  const columns = Math.ceil(width / tile);
  const rows = Math.ceil(height / tile);
  // One band's memory for every row of tiles (each is written before the next is made): a fresh
  // Buffer of 12–24 MB a row is garbage V8 collects on the event loop.
  const fullBand = Buffer.alloc(outWidth * tile * scale * 3);
  for (let row = 0; row < rows; row += 1) {
    const bandHeight = Math.min(tile, height - row * tile) * scale;
    const band = fullBand.subarray(0, outWidth * bandHeight * 3);
    for (let column = 0; column < columns; column += 1) {
      const core = {
        x: column * tile,
        y: row * tile,
        width: Math.min(tile, width - column * tile),
        height: Math.min(tile, height - row * tile),
      };
      const padded = {
        x: core.x - CONTEXT,
        y: core.y - CONTEXT,
        width: core.width + 2 * CONTEXT,
        height: core.height + 2 * CONTEXT,
      };
      const input = window(rgb, width, height, padded);
      const upscaled = await model.run<Uint8Array>(
        { rgb: input, width: padded.width, height: padded.height, model: weights },
        signal,
        [input.buffer as ArrayBuffer],
      );
      // Keep the core's pixels of the upscaled tile: its context only fed the model.
      const tileWidth = padded.width * scale;
      for (let y = 0; y < bandHeight; y += 1) {
        const from = ((CONTEXT * scale + y) * tileWidth + CONTEXT * scale) * 3;
        const to = (y * outWidth + core.x * scale) * 3;
        band.set(upscaled.subarray(from, from + core.width * scale * 3), to);
      }
      onTile?.(row * columns + column + 1, rows * columns);
    }
    await write(band, row * tile * scale);
  }
}

/** The upscaled picture as one Buffer of raw RGB (the bench and the tests compare pixels). */
export async function superResolve(
  rgb: Buffer,
  width: number,
  height: number,
  scale: UpscaleFactor,
  options: UpscaleOptions = {},
): Promise<Buffer> {
  const output = Buffer.alloc(width * scale * height * scale * 3);
  await superResolveBands(
    rgb,
    width,
    height,
    scale,
    async (band, firstRow) => output.set(band, firstRow * width * scale * 3),
    options,
  );
  return output;
}

/**
 * The upscaled picture written to the .v file `path` band by band (media/image/vips-file.ts),
 * for sharp to read: the tool's way, which never holds the whole result in memory.
 */
export const superResolveToFile = (
  rgb: Buffer,
  width: number,
  height: number,
  scale: UpscaleFactor,
  path: string,
  options: UpscaleOptions = {},
): Promise<void> =>
  writeVipsRgb(path, width * scale, height * scale, (write) =>
    superResolveBands(rgb, width, height, scale, write, options),
  );
