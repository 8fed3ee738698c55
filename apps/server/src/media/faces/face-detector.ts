import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DetectedFace, EngineStatus } from '@refract/contracts';
import type { Sharp } from 'sharp';
import { imageSlots, inImageSlot } from '../image/slots.js';
import { MODEL_WORKER_SERVE, ModelWorker, type Runtime } from '../model-worker.js';
import { TFJS_WORKER_START, tfjsPaths } from '../tfjs-wasm.js';

/**
 * Face detection with the SSD MobileNet v1 weights that ship inside @vladmandic/face-api: nothing
 * is downloaded, at install or at run time. They run on onnxruntime's native CPU runtime in a
 * worker thread (onnx-face-worker.ts, the network written as ONNX by ssd-to-onnx.ts); face-api
 * itself on TensorFlow.js's WebAssembly runtime stays for the bench and the test that shows both
 * find the same faces. The model loads once, on first use.
 */
const require = createRequire(import.meta.url);
const FACE_API_PACKAGE = '@vladmandic/face-api/package.json';
const MODEL_MANIFEST = 'ssd_mobilenetv1_model-weights_manifest.json';

/** The pass over the whole image sees it at most this wide or high. */
const DETECTION_SIDE = 1024;
/**
 * A box the model scores below this is not a face. On the hand-marked face set
 * (bench/fixtures/faces), 0.5 missed 4 of 76 faces, 0.4 misses 2 (both about 30 px) with one
 * false box in 24 photos, and 0.3 misses 1 but finds faces in bark and rocks: 0.4, as a missed face
 * is the worse mistake for a privacy tool and every box is shown for review before the download.
 */
export const MIN_CONFIDENCE = 0.4;
const MAX_FACES = 50;

const modelDir = () => join(dirname(require.resolve(FACE_API_PACKAGE)), 'model');

/** Whether the packages and weights are installed (for /api/health; loads nothing). */
export function faceModelStatus(): EngineStatus {
  try {
    require.resolve('onnxruntime-node');
    if (!existsSync(join(modelDir(), MODEL_MANIFEST))) throw new Error('no model');
    const { version } = JSON.parse(readFileSync(require.resolve(FACE_API_PACKAGE), 'utf8')) as {
      version: string;
    };
    return { available: true, version };
  } catch {
    return { available: false, version: null };
  }
}

/**
 * face-api's own detector on the TensorFlow.js WebAssembly runtime, loaded once (the bench and
 * the agreement test). An inference takes about half a second of one core: on the event loop it
 * held every other request that long.
 */
const TFJS_WORKER = `${MODEL_WORKER_SERVE}${TFJS_WORKER_START}
const ready = (async () => {
  await backend;
  const faceapi = require(workerData.faceApi);
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(workerData.modelDir);
  return faceapi;
})();
serve(async ({ data, width, height }) => {
  const faceapi = await ready;
  const tensor = tf.tensor3d(data, [height, width, 3], 'int32');
  try {
    const found = await faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options(workerData.options));
    return { result: found.map(({ box, score }) =>
      ({ x: box.x, y: box.y, width: box.width, height: box.height, score })) };
  } finally {
    tensor.dispose();
  }
});
`;

/** Past this many detections waiting, more are refused rather than queued without end. */
const MAX_WAITING = 8;

const detectors = new Map<Runtime, ModelWorker>();

function getDetector(runtime: Runtime): ModelWorker {
  let detector = detectors.get(runtime);
  if (!detector) {
    const options = { name: 'Face detection', maxWaiting: MAX_WAITING, heapMb: 512 };
    detector =
      runtime === 'onnx'
        ? new ModelWorker(
            new URL('./onnx-face-worker.js', import.meta.url),
            {
              // As many threads as images may be worked on at once: the model is one of them.
              threads: imageSlots(),
              modelDir: modelDir(),
              manifest: MODEL_MANIFEST,
              minConfidence: MIN_CONFIDENCE,
              maxResults: MAX_FACES,
            },
            options,
          )
        : new ModelWorker(
            TFJS_WORKER,
            {
              ...tfjsPaths(),
              faceApi: require.resolve('@vladmandic/face-api/dist/face-api.node-wasm.js'),
              modelDir: modelDir(),
              options: { minConfidence: MIN_CONFIDENCE, maxResults: MAX_FACES },
            },
            options,
          );
    detectors.set(runtime, detector);
  }
  return detector;
}

/** Ends the workers (the bench, the tests). */
export async function closeFaceDetection() {
  await Promise.all([...detectors.values()].map((worker) => worker.close()));
  detectors.clear();
}

/** RGB pixels of `pipeline` at most `side` wide or high (enlarged only when `enlarge`). */
async function pixelsInside(pipeline: Sharp, side: number, enlarge = false): Promise<Pixels> {
  const { data, info } = await pipeline
    .resize(side, side, { fit: 'inside', withoutEnlargement: !enlarge })
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** One inference: the faces in `pixels`, in its own pixels. */
async function inferFaces(pixels: Pixels, runtime: Runtime, signal?: AbortSignal): Promise<Box[]> {
  // A buffer that is its own memory (a tile, a decode) moves to the worker without a copy; the
  // caller does not use it again.
  const { buffer, byteOffset, byteLength } = pixels.data;
  const data =
    buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength
      ? new Uint8Array(buffer)
      : new Uint8Array(pixels.data);
  return getDetector(runtime).run<Box[]>(
    { data, width: pixels.width, height: pixels.height },
    signal,
    [data.buffer],
  );
}

/**
 * The model sees its input at 512 px: a whole 12 MP photo shrinks 8 times there, and a face of
 * 100 px becomes 12, too small to be found (a clear front-on face was missed in a group photo).
 * So the image is searched at several scales, a pyramid: whole at 1024 px, then at twice that
 * and twice again up to its own size (at most TILED_SIDE), each level cut into tiles of TILE px
 * that overlap by a quarter, so a face lies whole in some tile of the level where it is of a size
 * the model finds best. A 12 MP photo takes 1 + 6 + 20 inferences. A photo small enough is also
 * searched enlarged half as much again (within TILED_SIDE): a face of 24–36 px there reaches the
 * model at 18–27 px instead of 12–18, where the hand-marked set's two smallest faces were missed.
 */
const TILE = 1024;
const TILE_OVERLAP = 256;
const TILED_SIDE = 4096;
const ENLARGED = 1.5;

/** The long sides the pyramid's tiled levels see the image at. */
function pyramidSides(longSide: number): number[] {
  const sides: number[] = [];
  for (let side = DETECTION_SIDE * 2; side < Math.min(longSide, TILED_SIDE); side *= 2)
    sides.push(side);
  if (longSide > DETECTION_SIDE) sides.push(Math.min(longSide, TILED_SIDE));
  const enlarged = Math.round(longSide * ENLARGED);
  if (enlarged > DETECTION_SIDE && enlarged <= TILED_SIDE) sides.push(enlarged);
  return sides;
}

/** Where tiles start along one side of `length` pixels. */
function tileStarts(length: number): number[] {
  if (length <= TILE) return [0];
  const count = Math.ceil((length - TILE_OVERLAP) / (TILE - TILE_OVERLAP));
  const stride = (length - TILE) / (count - 1);
  return Array.from({ length: count }, (_, i) => Math.round(i * stride));
}

/** The share of the smaller box that the two share. */
function containment(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

/**
 * One box per face from every pass: the best-scored first; a box mostly inside one already kept
 * (the same face seen again, or cut at a tile's edge) is dropped.
 */
export function mergeDetections(boxes: Box[]): Box[] {
  const kept: Box[] = [];
  for (const box of [...boxes].sort((a, b) => b.score - a.score))
    if (kept.every((other) => containment(box, other) < 0.5)) kept.push(box);
  return kept.slice(0, MAX_FACES);
}

/**
 * Faces in an image `source.width` × `source.height` (as displayed), in its pixels with a margin
 * (padFace), from every level of the pyramid (see TILE), one box a face.
 * Decoding holds an image slot; the model has its own queue.
 */
export async function findFaces(
  pipeline: () => Sharp,
  source: { width: number; height: number },
  signal?: AbortSignal,
  runtime: Runtime = 'onnx',
): Promise<DetectedFace[]> {
  const whole = await inImageSlot(() => pixelsInside(pipeline(), DETECTION_SIDE), signal);
  const found = (await inferFaces(whole, runtime, signal)).map((box) =>
    scaled(box, source.width / whole.width),
  );
  for (const side of pyramidSides(Math.max(source.width, source.height))) {
    const level = await inImageSlot(() => pixelsInside(pipeline(), side, true), signal);
    const scale = source.width / level.width;
    for (const top of tileStarts(level.height))
      for (const left of tileStarts(level.width)) {
        for (const box of await inferFaces(tileOf(level, left, top), runtime, signal))
          found.push(scaled({ ...box, x: box.x + left, y: box.y + top }, scale));
      }
  }
  return mergeDetections(found).map((box) => ({
    ...padFace(box, source),
    score: Math.round(box.score * 1000) / 1000,
  }));
}

const scaled = (box: Box, by: number): Box => ({
  x: box.x * by,
  y: box.y * by,
  width: box.width * by,
  height: box.height * by,
  score: box.score,
});

/**
 * The TILE × TILE square (or less, at an edge) of `pixels` from (left, top): rows copied, a few
 * milliseconds for a 1024 px tile, where a libvips pipeline a tile would take an image slot.
 */
function tileOf(pixels: Pixels, left: number, top: number): Pixels {
  const width = Math.min(TILE, pixels.width - left);
  const height = Math.min(TILE, pixels.height - top);
  const data = Buffer.allocUnsafe(width * height * 3);
  for (let row = 0; row < height; row += 1) {
    const from = ((top + row) * pixels.width + left) * 3;
    pixels.data.copy(data, row * width * 3, from, from + width * 3);
  }
  return { data, width, height };
}

/**
 * Each side of a found face grows by this share of the face's own size. The detector's box runs
 * from the brows to the chin and between the cheeks: hair, forehead, ears and jaw, which also
 * tell who someone is, were left in sight.
 */
export const FACE_MARGIN = 0.15;

/** A detector's box with its margin, in whole pixels inside the `source` image. */
export function padFace(
  box: { x: number; y: number; width: number; height: number },
  source: { width: number; height: number },
) {
  const left = Math.max(0, Math.round(box.x - box.width * FACE_MARGIN));
  const top = Math.max(0, Math.round(box.y - box.height * FACE_MARGIN));
  const right = Math.min(source.width, Math.round(box.x + box.width * (1 + FACE_MARGIN)));
  const bottom = Math.min(source.height, Math.round(box.y + box.height * (1 + FACE_MARGIN)));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
