import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeFaceDetection, findFaces } from './face-detector.js';

const require = createRequire(import.meta.url);
const demo = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

/**
 * The detector runs face-api's network written as ONNX on the native runtime; face-api itself on
 * TF.js finds the same faces, box for box, on its own sample photos (each searched whole and in
 * tiles: the pyramid's every step).
 */
describe('face detection on the native runtime', { timeout: 300_000 }, () => {
  afterAll(() => closeFaceDetection());

  // One photo searched whole and in tiles is every step of the pyramid; TF.js on WebAssembly
  // takes half a minute a photo on a busy machine, so one is enough.
  it('finds what face-api on TF.js finds in its sample5.jpg, each box within a pixel', async () => {
    const file = join(demo, 'sample5.jpg');
    const { width, height } = await sharp(file).metadata();
    const source = { width: width!, height: height! };
    const native = await findFaces(() => sharp(file), source, undefined, 'onnx');
    const tfjs = await findFaces(() => sharp(file), source, undefined, 'tfjs');
    expect(native.length).toBeGreaterThanOrEqual(3);
    expect(native.length).toBe(tfjs.length);
    native.forEach((face, i) => {
      const other = tfjs[i]!;
      for (const key of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs(face[key] - other[key]), `${key} of face ${i}`).toBeLessThanOrEqual(1);
      expect(Math.abs(face.score - other.score), `score of face ${i}`).toBeLessThanOrEqual(0.005);
    });
  });
});
