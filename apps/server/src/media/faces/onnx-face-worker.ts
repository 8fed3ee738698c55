import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { serveModel } from '../serve-model.js';
import { readWeights, type WeightsManifest } from '../onnx/tfjs-weights.js';
import { anchorsOf, SSD_SIDE, ssdToOnnx } from './ssd-to-onnx.js';

/**
 * The face detector's worker thread on onnxruntime's native CPU runtime: face-api's SSD MobileNet
 * v1 written as ONNX in memory at start (ssd-to-onnx.ts). What face-api does around the network
 * is done here as it does it (SsdMobilenetv1.locateFaces): the image padded square at its right
 * or bottom with black, resized to 512 px (bilinear, TF's corner-aligned-off sampling), scaled
 * to −1…1; then the boxes decoded from the anchors, scored by a sigmoid, and suppressed.
 */
const { threads, modelDir, manifest, minConfidence, maxResults } = workerData as {
  threads: number;
  modelDir: string;
  manifest: string;
  minConfidence: number;
  maxResults: number;
};

const IOU_THRESHOLD = 0.5;

const ready = (() => {
  const spec = JSON.parse(readFileSync(`${modelDir}/${manifest}`, 'utf8')) as WeightsManifest;
  const data = Buffer.concat(
    spec.flatMap((g) => g.paths).map((p) => readFileSync(`${modelDir}/${p}`)),
  );
  const weights = readWeights(spec, data);
  const session = InferenceSession.create(ssdToOnnx(weights), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Its threads otherwise spin on the cores after each inference, waiting for the next.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  });
  return { session, anchors: anchorsOf(weights) };
})();

/**
 * The network's input: the RGB image padded square with zeros and resized to 512 px by TF's
 * resizeBilinear (source = destination × in/out, no half-pixel offset), then x / 127.5 − 1, NCHW.
 */
function networkInput(rgb: Uint8Array, width: number, height: number): Float32Array {
  const side = Math.max(width, height);
  const ratio = side / SSD_SIDE;
  const plane = SSD_SIDE * SSD_SIDE;
  const out = new Float32Array(3 * plane);
  const at = (x: number, y: number, c: number) =>
    x < width && y < height ? rgb[(y * width + x) * 3 + c]! : 0;
  for (let oy = 0; oy < SSD_SIDE; oy += 1) {
    const sy = oy * ratio;
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, side - 1);
    const dy = sy - y0;
    for (let ox = 0; ox < SSD_SIDE; ox += 1) {
      const sx = ox * ratio;
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, side - 1);
      const dx = sx - x0;
      for (let c = 0; c < 3; c += 1) {
        const top = at(x0, y0, c) + (at(x1, y0, c) - at(x0, y0, c)) * dx;
        const bottom = at(x0, y1, c) + (at(x1, y1, c) - at(x0, y1, c)) * dx;
        out[c * plane + oy * SSD_SIDE + ox] = (top + (bottom - top) * dy) / 127.5 - 1;
      }
    }
  }
  return out;
}

type Corners = [number, number, number, number];

/** face-api's decodeBoxesLayer: an anchor and its encoding to [ymin, xmin, ymax, xmax]. */
function decode(anchors: Float32Array, encodings: Float32Array, i: number): Corners {
  const [ay0, ax0, ay1, ax1] = [0, 1, 2, 3].map((k) => anchors[i * 4 + k]!) as Corners;
  const [ty, tx, th, tw] = [0, 1, 2, 3].map((k) => encodings[i * 4 + k]!) as Corners;
  const [h, w] = [ay1 - ay0, ax1 - ax0];
  const [cy, cx] = [ay0 + h / 2 + (ty / 10) * h, ax0 + w / 2 + (tx / 10) * w];
  const [halfH, halfW] = [(Math.exp(th / 5) * h) / 2, (Math.exp(tw / 5) * w) / 2];
  return [cy - halfH, cx - halfW, cy + halfH, cx + halfW];
}

/** face-api's IOU, corners in either order. */
function iou(a: Corners, b: Corners): number {
  const box = (c: Corners) => [
    Math.min(c[0], c[2]),
    Math.min(c[1], c[3]),
    Math.max(c[0], c[2]),
    Math.max(c[1], c[3]),
  ];
  const [ay0, ax0, ay1, ax1] = box(a) as Corners;
  const [by0, bx0, by1, bx1] = box(b) as Corners;
  const areaA = (ay1 - ay0) * (ax1 - ax0);
  const areaB = (by1 - by0) * (bx1 - bx0);
  if (areaA <= 0 || areaB <= 0) return 0;
  const shared =
    Math.max(Math.min(ay1, by1) - Math.max(ay0, by0), 0) *
    Math.max(Math.min(ax1, bx1) - Math.max(ax0, bx0), 0);
  return shared / (areaA + areaB - shared);
}

/**
 * face-api's nonMaxSuppression: by score, above the threshold; a box overlapping a kept one by
 * more than IOU_THRESHOLD is dropped.
 */
function suppress(boxes: Corners[], scores: number[]): number[] {
  const candidates = scores
    .map((score, index) => ({ score, index }))
    .filter((c) => c.score > minConfidence)
    .sort((a, b) => b.score - a.score);
  const kept: number[] = [];
  for (const candidate of candidates) {
    if (kept.length >= Math.min(maxResults, boxes.length)) break;
    if (kept.every((other) => iou(boxes[candidate.index]!, boxes[other]!) <= IOU_THRESHOLD))
      kept.push(candidate.index);
  }
  return kept;
}

serveModel(async ({ data, width, height }: { data: Uint8Array; width: number; height: number }) => {
  const { session, anchors } = ready;
  const input = new Tensor('float32', networkInput(data, width, height), [
    1,
    3,
    SSD_SIDE,
    SSD_SIDE,
  ]);
  const outputs = await (await session).run({ input });
  input.dispose();
  const encodings = outputs.box_encodings!.data as Float32Array;
  const logits = outputs.class_logits!.data as Float32Array;
  const count = anchors.length / 4;
  const boxes = Array.from({ length: count }, (_, i) => decode(anchors, encodings, i));
  const scores = Array.from({ length: count }, (_, i) => 1 / (1 + Math.exp(-logits[i * 3 + 1]!)));
  outputs.box_encodings!.dispose();
  outputs.class_logits!.dispose();
  // As locateFaces maps a box: clamped to the padded square, then to the image's own pixels.
  const side = Math.max(width, height);
  const padX = SSD_SIDE / Math.round((width * SSD_SIDE) / side);
  const padY = SSD_SIDE / Math.round((height * SSD_SIDE) / side);
  const result = suppress(boxes, scores).map((i) => {
    const [ymin, xmin, ymax, xmax] = boxes[i]!;
    const [top, bottom] = [Math.max(0, ymin), Math.min(1, ymax)].map((v) => v * padY * height);
    const [left, right] = [Math.max(0, xmin), Math.min(1, xmax)].map((v) => v * padX * width);
    return { x: left!, y: top!, width: right! - left!, height: bottom! - top!, score: scores[i]! };
  });
  return { result };
});
