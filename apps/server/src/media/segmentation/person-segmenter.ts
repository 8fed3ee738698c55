import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineStatus } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import { tensorflow, type Tf } from '../tfjs-wasm.js';

/**
 * Person segmentation with MediaPipe's Selfie Segmentation model (Apache-2.0), committed as a
 * TensorFlow.js graph model under apps/server/models (its README names the source and hashes),
 * run by the shared TensorFlow.js WebAssembly runtime. Loaded once, on first use, and shared.
 */
const MODEL_DIR = fileURLToPath(new URL('../../../models/selfie-segmentation/', import.meta.url));
const MODEL_JSON = `${MODEL_DIR}selfie.json`;
const MODEL_VERSION = 'mediapipe-selfie-segmentation-general';

/** The model's fixed input: a 256×256 RGB image, values 0 to 1. */
export const SEGMENTATION_SIDE = 256;

/** Past this many inferences waiting their turn, more are refused rather than queued without end. */
const MAX_WAITING = 8;

type GraphModel = Awaited<ReturnType<Tf['loadGraphModel']>>;

interface Segmenter {
  tf: Tf;
  model: GraphModel;
}

/** Whether the model files are there (for /api/health; loads nothing). */
export function segmentationModelStatus(): EngineStatus {
  return existsSync(MODEL_JSON)
    ? { available: true, version: MODEL_VERSION }
    : { available: false, version: null };
}

async function loadSegmenter(): Promise<Segmenter> {
  const tf = await tensorflow();
  const manifest = JSON.parse(readFileSync(MODEL_JSON, 'utf8')) as {
    modelTopology: object;
    format: string;
    signature: object;
    weightsManifest: { paths: string[]; weights: object[] }[];
  };
  const group = manifest.weightsManifest[0]!;
  const weights = readFileSync(`${MODEL_DIR}${group.paths[0]}`);
  // Loaded from memory: tfjs's own file loader would treat a path as a URL to fetch.
  const model = await tf.loadGraphModel({
    load: async () => ({
      modelTopology: manifest.modelTopology,
      format: manifest.format,
      signature: manifest.signature,
      weightSpecs: group.weights as never,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
    }),
  });
  return { tf, model };
}

let segmenter: Promise<Segmenter> | undefined;
/** Inferences run one after another: the WebAssembly backend uses one thread. */
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

async function getSegmenter(): Promise<Segmenter> {
  segmenter ??= loadSegmenter();
  try {
    return await segmenter;
  } catch (err) {
    segmenter = undefined;
    throw new AppError(
      503,
      'engine_unavailable',
      `Background removal is not available on this server (${(err as Error).message})`,
    );
  }
}

/**
 * The person mask of an image given as 256×256 RGB pixels: 256×256 bytes, 255 where the model is
 * sure of a person, 0 where it is sure of background, its probability in between.
 */
export async function segmentPerson(rgb: Buffer, signal?: AbortSignal): Promise<Buffer> {
  const side = SEGMENTATION_SIDE;
  if (rgb.length !== side * side * 3) throw new Error('the model takes 256×256 RGB pixels');
  if (waiting >= MAX_WAITING)
    throw new AppError(
      503,
      'server_busy',
      'Background removal is busy. Please try again shortly.',
      {
        'retry-after': '5',
      },
    );
  const { tf, model } = await getSegmenter();
  waiting += 1;
  const run = queue.then(async () => {
    // A request that went away or ran out of time while waiting never starts its inference.
    signal?.throwIfAborted();
    const output = tf.tidy(() => {
      const input = tf.tensor4d(
        Float32Array.from(rgb, (v) => v / 255),
        [1, side, side, 3],
      );
      return model.execute(input) as ReturnType<Tf['tensor']>;
    });
    try {
      const probabilities = await output.data();
      return Buffer.from(Uint8Array.from(probabilities, (p) => Math.round(p * 255)));
    } finally {
      output.dispose();
    }
  });
  queue = run.catch(() => undefined).finally(() => (waiting -= 1));
  return run;
}
