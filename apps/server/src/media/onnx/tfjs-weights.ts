/** The weights of a TF.js model (its manifest's groups and their binary shards), as floats. */
export type WeightsManifest = {
  paths: string[];
  weights: {
    name: string;
    shape: number[];
    dtype: string;
    quantization?: { scale: number; min: number; dtype: string };
  }[];
}[];

export interface Weight {
  shape: number[];
  values: Float32Array;
}

/**
 * Every weight of a TF.js weights manifest by name, read in the manifest's order from its shards
 * concatenated; uint8-quantized ones expanded (value = q × scale + min), as tfjs does.
 */
export function readWeights(manifest: WeightsManifest, data: Uint8Array): Map<string, Weight> {
  const weights = new Map<string, Weight>();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  for (const spec of manifest.flatMap((group) => group.weights)) {
    const count = spec.shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(count);
    const q = spec.quantization;
    if (q && q.dtype !== 'uint8') throw new Error(`weight ${spec.name}: ${q.dtype} quantization`);
    for (let i = 0; i < count; i += 1)
      if (q) values[i] = data[at + i]! * q.scale + q.min;
      else if (spec.dtype === 'float32') values[i] = view.getFloat32(at + i * 4, true);
      else values[i] = view.getInt32(at + i * 4, true);
    at += count * (q ? 1 : 4);
    weights.set(spec.name, { shape: spec.shape, values });
  }
  if (at !== data.length)
    throw new Error(`the weights hold ${data.length} bytes, the manifest ${at}`);
  return weights;
}
