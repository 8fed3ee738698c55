import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineStatus } from '@refract/contracts';
import { MODEL_WORKER_SERVE, ModelWorker } from '../model-worker.js';
import { TFJS_WORKER_START, tfjsPaths } from '../tfjs-wasm.js';

/**
 * Person segmentation with MediaPipe's Selfie Segmentation model (Apache-2.0), committed as a
 * TensorFlow.js graph model under apps/server/models (its README names the source and hashes),
 * run by TensorFlow.js on WebAssembly in a worker thread. Loaded once, on first use, and shared.
 */
const MODEL_DIR = fileURLToPath(new URL('../../../models/selfie-segmentation/', import.meta.url));
const MODEL_JSON = `${MODEL_DIR}selfie.json`;
const MODEL_VERSION = 'mediapipe-selfie-segmentation-general';

/** The model's fixed input: a 256×256 RGB image, values 0 to 1. */
export const SEGMENTATION_SIDE = 256;

/** Past this many inferences waiting their turn, more are refused rather than queued without end. */
const MAX_WAITING = 8;

/** Whether the model files are there (for /api/health; loads nothing). */
export function segmentationModelStatus(): EngineStatus {
  return existsSync(MODEL_JSON)
    ? { available: true, version: MODEL_VERSION }
    : { available: false, version: null };
}

/**
 * The segmenter's worker: the runtime and the model, loaded once from memory (tfjs's own file
 * loader would treat a path as a URL to fetch). An inference took about a tenth of a second of
 * one core, on the event loop before.
 */
const WORKER = `${MODEL_WORKER_SERVE}${TFJS_WORKER_START}
const { readFileSync } = require('node:fs');
const ready = (async () => {
  await backend;
  const manifest = JSON.parse(readFileSync(workerData.modelJson, 'utf8'));
  const group = manifest.weightsManifest[0];
  const weights = readFileSync(workerData.modelDir + group.paths[0]);
  return tf.loadGraphModel({
    load: async () => ({
      modelTopology: manifest.modelTopology,
      format: manifest.format,
      signature: manifest.signature,
      weightSpecs: group.weights,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
    }),
  });
})();
serve(async ({ rgb, side }) => {
  const model = await ready;
  const output = tf.tidy(() =>
    model.execute(tf.tensor4d(Float32Array.from(rgb, (v) => v / 255), [1, side, side, 3])));
  try {
    const probabilities = await output.data();
    const mask = Uint8Array.from(probabilities, (p) => Math.round(p * 255));
    return { result: mask, transfer: [mask.buffer] };
  } finally {
    output.dispose();
  }
});
`;

let segmenter: ModelWorker | undefined;

function getSegmenter(): ModelWorker {
  segmenter ??= new ModelWorker(
    WORKER,
    {
      ...tfjsPaths(),
      modelJson: MODEL_JSON,
      modelDir: MODEL_DIR,
    },
    { name: 'Background removal', maxWaiting: MAX_WAITING, heapMb: 512 },
  );
  return segmenter;
}

/**
 * The person mask (one byte a pixel, 0 to 255) of 256×256 RGB pixels. A request that went away
 * or ran out of time while waiting answers at once; its inference's result is dropped.
 */
export async function segmentPerson(rgb: Buffer, signal?: AbortSignal): Promise<Buffer> {
  const side = SEGMENTATION_SIDE;
  if (rgb.length !== side * side * 3) throw new Error('the model takes 256×256 RGB pixels');
  const input = new Uint8Array(rgb);
  const mask = await getSegmenter().run<Uint8Array>({ rgb: input, side }, signal, [input.buffer]);
  return Buffer.from(mask.buffer, mask.byteOffset, mask.byteLength);
}
