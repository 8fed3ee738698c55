import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DetectedFace, EngineStatus } from '@refract/contracts';
import type { Sharp } from 'sharp';
import { MODEL_WORKER_SERVE, ModelWorker } from '../model-worker.js';
import { TFJS_WASM_FILE, TFJS_WORKER_START, tfjsPaths } from '../tfjs-wasm.js';

/**
 * Face detection with the SSD MobileNet v1 weights that ship inside @vladmandic/face-api, run by
 * TensorFlow.js on WebAssembly in a worker thread: nothing is downloaded, at install or at run time.
 * The model loads once, on first use.
 */
const require = createRequire(import.meta.url);
const FACE_API_PACKAGE = '@vladmandic/face-api/package.json';
const MODEL_MANIFEST = 'ssd_mobilenetv1_model-weights_manifest.json';

/** The detector sees the image at most this wide or high: faster, and enough for faces. */
const DETECTION_SIDE = 1024;
const MIN_CONFIDENCE = 0.5;
const MAX_FACES = 50;

const modelDir = () => join(dirname(require.resolve(FACE_API_PACKAGE)), 'model');

/** Whether the packages and weights are installed (for /api/health; loads nothing). */
export function faceModelStatus(): EngineStatus {
  try {
    require.resolve(TFJS_WASM_FILE);
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
 * The detector's worker: the TensorFlow.js WebAssembly runtime and the model, loaded once. An
 * inference on a 1024 px image takes about half a second of one core: on the event loop it held
 * every other request that long.
 */
const WORKER = `${MODEL_WORKER_SERVE}${TFJS_WORKER_START}
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

let detector: ModelWorker | undefined;

function getDetector(): ModelWorker {
  detector ??= new ModelWorker(
    WORKER,
    {
      ...tfjsPaths(),
      faceApi: require.resolve('@vladmandic/face-api/dist/face-api.node-wasm.js'),
      modelDir: modelDir(),
      options: { minConfidence: MIN_CONFIDENCE, maxResults: MAX_FACES },
    },
    { name: 'Face detection', maxWaiting: MAX_WAITING, heapMb: 512 },
  );
  return detector;
}

/** RGB pixels of the image, scaled down to the detection size. */
export async function detectionPixels(pipeline: Sharp) {
  const { data, info } = await pipeline
    .resize(DETECTION_SIDE, DETECTION_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Faces in pixels of an image `width` wide and `height` high (the source the pixels came from). */
export async function detectFaces(
  pixels: { data: Buffer; width: number; height: number },
  source: { width: number; height: number },
  signal?: AbortSignal,
): Promise<DetectedFace[]> {
  const data = new Uint8Array(pixels.data);
  const boxes = await getDetector().run<
    { x: number; y: number; width: number; height: number; score: number }[]
  >({ data, width: pixels.width, height: pixels.height }, signal, [data.buffer]);
  const scale = source.width / pixels.width;
  return boxes.map((box) => ({
    ...padFace(
      {
        x: box.x * scale,
        y: box.y * scale,
        width: box.width * scale,
        height: box.height * scale,
      },
      source,
    ),
    score: Math.round(box.score * 1000) / 1000,
  }));
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
