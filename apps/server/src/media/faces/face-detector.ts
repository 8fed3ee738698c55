import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DetectedFace, EngineStatus } from '@refract/contracts';
import type { Sharp } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { tensorflow, TFJS_WASM_FILE, type Tf } from '../tfjs-wasm.js';

/**
 * Face detection with the SSD MobileNet v1 weights that ship inside @vladmandic/face-api, run by
 * the shared TensorFlow.js WebAssembly runtime: nothing is downloaded, at install or at run time.
 * The model loads once, on first use.
 */
const require = createRequire(import.meta.url);
const FACE_API_PACKAGE = '@vladmandic/face-api/package.json';
const MODEL_MANIFEST = 'ssd_mobilenetv1_model-weights_manifest.json';

/** The detector sees the image at most this wide or high: faster, and enough for faces. */
const DETECTION_SIDE = 1024;
const MIN_CONFIDENCE = 0.5;
const MAX_FACES = 50;

/** The part of face-api's API used here. */
interface FaceApi {
  nets: { ssdMobilenetv1: { loadFromDisk(dir: string): Promise<void> } };
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => object;
  detectAllFaces(
    input: unknown,
    options: object,
  ): PromiseLike<{ box: { x: number; y: number; width: number; height: number }; score: number }[]>;
}

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

interface Detector {
  tf: Tf;
  faceapi: FaceApi;
}

async function loadDetector(): Promise<Detector> {
  const tf = await tensorflow();
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir());
  return { tf, faceapi };
}

let detector: Promise<Detector> | undefined;
/** Detections run one after another: the backend is single-threaded and this route is free. */
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;
/** Past this many waiting detections, more are refused rather than queued without end. */
const MAX_WAITING = 8;

async function getDetector(): Promise<Detector> {
  detector ??= loadDetector();
  try {
    return await detector;
  } catch (err) {
    detector = undefined;
    throw new AppError(
      503,
      'engine_unavailable',
      `Face detection is not available on this server (${(err as Error).message})`,
    );
  }
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
): Promise<DetectedFace[]> {
  if (waiting >= MAX_WAITING)
    throw new AppError(503, 'server_busy', 'Face detection is busy. Please try again shortly.', {
      'retry-after': '5',
    });
  const { tf, faceapi } = await getDetector();
  waiting += 1;
  const run = queue.then(async () => {
    const tensor = tf.tensor3d(
      new Uint8Array(pixels.data),
      [pixels.height, pixels.width, 3],
      'int32',
    );
    try {
      return await faceapi.detectAllFaces(
        tensor,
        new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE, maxResults: MAX_FACES }),
      );
    } finally {
      tensor.dispose();
    }
  });
  queue = run.catch(() => undefined).finally(() => (waiting -= 1));
  const scale = source.width / pixels.width;
  return (await run).map(({ box, score }) => {
    const x = Math.max(0, Math.round(box.x * scale));
    const y = Math.max(0, Math.round(box.y * scale));
    return {
      x,
      y,
      width: Math.min(source.width - x, Math.round(box.width * scale)),
      height: Math.min(source.height - y, Math.round(box.height * scale)),
      score: Math.round(score * 1000) / 1000,
    };
  });
}
