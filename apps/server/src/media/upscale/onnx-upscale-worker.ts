import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { serveModel } from '../serve-model.js';
import { layersToOnnx, type LayersManifest } from './layers-to-onnx.js';

/**
 * The upscaling models' worker thread on onnxruntime's native CPU runtime: each TF.js layers
 * model a call names is written as ONNX in memory on first use (layers-to-onnx.ts) and kept.
 * A tile comes as 0–255 RGB bytes and goes back as bytes, rounded and clamped as TF.js's path
 * does (Uint8ClampedArray).
 */
const { threads } = workerData as { threads: number };

/** A model's folder, and the pixel range it was trained on (layers-to-onnx scales 0–255 to it). */
interface Weights {
  dir: string;
  range: 1 | 255;
}

const sessions = new Map<string, Promise<InferenceSession>>();

function session({ dir, range }: Weights): Promise<InferenceSession> {
  let loading = sessions.get(dir);
  if (!loading) {
    const manifest = JSON.parse(readFileSync(`${dir}model.json`, 'utf8')) as LayersManifest;
    const shards = manifest.weightsManifest.flatMap((group) => group.paths);
    const weights = Buffer.concat(shards.map((path) => readFileSync(dir + path)));
    loading = InferenceSession.create(layersToOnnx(manifest, weights, range), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // Tiles vary in size at the image's edges: without the arena, what a tile took goes
      // back when it is done instead of staying reserved for the largest one seen.
      enableCpuMemArena: false,
      // Its threads otherwise spin on the cores after each tile, waiting for the next: CPU
      // taken from the other requests (38 ms in the idle second after a run, measured here).
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    sessions.set(dir, loading);
  }
  return loading;
}

serveModel(
  async ({
    rgb,
    width,
    height,
    model: weights,
  }: {
    rgb: Uint8Array;
    width: number;
    height: number;
    model: Weights;
  }) => {
    const model = await session(weights);
    const input = new Tensor('float32', Float32Array.from(rgb), [1, height, width, 3]);
    const { output } = await model.run({ input });
    const pixels = new Uint8Array(Uint8ClampedArray.from(output!.data as Float32Array).buffer);
    input.dispose();
    output!.dispose();
    return { result: pixels, transfer: [pixels.buffer] };
  },
);
