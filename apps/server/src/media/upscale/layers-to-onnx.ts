/**
 * A TensorFlow.js layers model (its model.json and weights) written as an ONNX model, so the
 * native runtime (onnxruntime-node) runs the very weights the npm package ships: nothing is
 * downloaded, and no converted file is kept that could drift from its package. Only the layers
 * UpscalerJS's ESRGAN models use are known (Conv2D, ReLU, Concatenate, Add, nearest
 * UpSampling2D, and the RRDN models' own MultiplyBeta and PixelShuffle); any other is refused by
 * name. The graph takes and gives NHWC, as TF.js does,
 * and works in NCHW inside, as ONNX's Conv does.
 */
import { floatTensor, hwioToOihw, imageValue, node, onnxModel } from '../onnx/onnx-proto.js';
import { readWeights } from '../onnx/tfjs-weights.js';

interface LayerConfig {
  name: string;
  activation?: string;
  padding?: 'same' | 'valid';
  strides?: number[];
  dilation_rate?: number[];
  kernel_size?: number[];
  use_bias?: boolean;
  axis?: number;
  size?: number[];
  interpolation?: string;
  /** MultiplyBeta's factor; PixelShuffle's block size. */
  beta?: number;
  scale?: number;
}

interface Layer {
  class_name: string;
  config: LayerConfig;
  inbound_nodes: [string, number, number, object][][];
}

export interface LayersManifest {
  format?: string;
  modelTopology: {
    model_config: {
      config: {
        layers: Layer[];
        input_layers: [string, number, number][];
        output_layers: [string, number, number][];
      };
    };
  };
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string }[];
  }[];
}

// ---- The layers ----

const sameOnes = (values: number[] | undefined) => (values ?? [1, 1]).every((v) => v === 1);

/**
 * A 'same' convolution of an image upsampled `s` times by repeating pixels, as one convolution
 * of the image itself giving s² × its outputs, each phase of the s × s block its own channels,
 * for DepthToSpace (DCR) to place: the same sums, without the upsampled image. On the
 * network's last layers at ×4 the upsampling and the convolution at 16 times the pixels took
 * 40 % of the run. Output pixel (s·u + a) reads source row u + ⌊(a + i − p) / s⌋ through kernel
 * row i; the kernel weights that land on the same source pixel add up.
 */
function subPixel(w: { dims: number[]; values: Float32Array }, bias: Float32Array, s: number) {
  const [outputs, inputs, h, wd] = w.dims as [number, number, number, number];
  const [ph, pw] = [(h - 1) / 2, (wd - 1) / 2];
  const offset = (phase: number, tap: number, p: number) => Math.floor((phase + tap - p) / s);
  let reach = 0;
  for (let phase = 0; phase < s; phase += 1) {
    for (let i = 0; i < h; i += 1) reach = Math.max(reach, Math.abs(offset(phase, i, ph)));
    for (let j = 0; j < wd; j += 1) reach = Math.max(reach, Math.abs(offset(phase, j, pw)));
  }
  const side = 2 * reach + 1;
  const values = new Float32Array(s * s * outputs * inputs * side * side);
  for (let a = 0; a < s; a += 1)
    for (let b = 0; b < s; b += 1)
      for (let o = 0; o < outputs; o += 1)
        for (let c = 0; c < inputs; c += 1)
          for (let i = 0; i < h; i += 1)
            for (let j = 0; j < wd; j += 1) {
              const y = offset(a, i, ph) + reach;
              const x = offset(b, j, pw) + reach;
              const to = ((((a * s + b) * outputs + o) * inputs + c) * side + y) * side + x;
              values[to] = values[to]! + w.values[((o * inputs + c) * h + i) * wd + j]!;
            }
  const biases = new Float32Array(s * s * outputs);
  for (let phase = 0; phase < s * s; phase += 1) biases.set(bias, phase * outputs);
  return { dims: [s * s * outputs, inputs, side, side], values, biases, reach };
}

/**
 * The model as ONNX bytes, ready for `InferenceSession.create`. The graph always takes and gives
 * 0–255: a model trained on 0–1 (`range` 1, as UpscalerJS's RRDN models are) is scaled inside.
 */
export function layersToOnnx(
  manifest: LayersManifest,
  weightData: Uint8Array,
  range: 1 | 255 = 255,
): Uint8Array {
  const config = manifest.modelTopology.model_config.config;
  const weights = readWeights(manifest.weightsManifest, weightData);
  const nodes: Uint8Array[] = [];
  const initializers: Uint8Array[] = [];
  const outputName = config.output_layers[0]![0];
  const inputsOf = (layer: Layer) => (layer.inbound_nodes[0] ?? []).map(([name]) => name);
  // Nearest upsamplings read only by a 'same' convolution with a bias: written as one (subPixel).
  const upsampledBy = new Map<string, { source: string; scale: number }>();
  for (const layer of config.layers) {
    const { size = [2, 2], name } = layer.config;
    if (layer.class_name !== 'UpSampling2D' || size[0] !== size[1]) continue;
    const readers = config.layers.filter((l) => inputsOf(l).includes(name));
    const conv = readers[0];
    if (
      readers.length === 1 &&
      conv!.class_name === 'Conv2D' &&
      conv!.config.padding === 'same' &&
      conv!.config.use_bias !== false
    )
      upsampledBy.set(name, { source: inputsOf(layer)[0]!, scale: size[0]! });
  }

  for (const layer of config.layers) {
    const { name } = layer.config;
    const inputs = inputsOf(layer);
    switch (layer.class_name) {
      case 'InputLayer':
        if (range === 255) nodes.push(node('Transpose', ['input'], name, { perm: [0, 3, 1, 2] }));
        else {
          initializers.push(floatTensor('to-range', [], Float32Array.of(range / 255)));
          nodes.push(node('Transpose', ['input'], `${name}/0-255`, { perm: [0, 3, 1, 2] }));
          nodes.push(node('Mul', [`${name}/0-255`, 'to-range'], name));
        }
        break;
      case 'Conv2D': {
        const {
          kernel_size: kernel = [],
          padding,
          strides,
          dilation_rate: dilation,
        } = layer.config;
        const odd = kernel.every((k) => k % 2 === 1);
        if (!sameOnes(strides) || !sameOnes(dilation) || (padding === 'same' && !odd))
          throw new Error(`layer ${name}: only stride 1, dilation 1 and odd kernels are known`);
        const w = hwioToOihw(weights.get(`${name}/kernel`)!);
        const activation = layer.config.activation ?? 'linear';
        const convOut = activation === 'linear' ? name : `${name}/linear`;
        const upsampled = upsampledBy.get(inputs[0]!);
        if (upsampled) {
          const fused = subPixel(w, weights.get(`${name}/bias`)!.values, upsampled.scale);
          initializers.push(floatTensor(`${name}/kernel`, fused.dims, fused.values));
          initializers.push(floatTensor(`${name}/bias`, [fused.biases.length], fused.biases));
          const { reach: r, dims } = fused;
          nodes.push(
            node('Conv', [upsampled.source, `${name}/kernel`, `${name}/bias`], `${name}/phases`, {
              kernel_shape: [dims[2]!, dims[3]!],
              pads: [r, r, r, r],
            }),
          );
          nodes.push(
            node('DepthToSpace', [`${name}/phases`], convOut, {
              blocksize: upsampled.scale,
              mode: 'DCR',
            }),
          );
          if (activation === 'relu') nodes.push(node('Relu', [convOut], name));
          else if (activation !== 'linear')
            throw new Error(`layer ${name}: activation ${activation}`);
          break;
        }
        initializers.push(floatTensor(`${name}/kernel`, w.dims, w.values));
        const convInputs = [inputs[0]!, `${name}/kernel`];
        if (layer.config.use_bias !== false) {
          const bias = weights.get(`${name}/bias`)!;
          initializers.push(floatTensor(`${name}/bias`, bias.shape, bias.values));
          convInputs.push(`${name}/bias`);
        }
        const pad = padding === 'same' ? (kernel[0]! - 1) / 2 : 0;
        const padW = padding === 'same' ? (kernel[1]! - 1) / 2 : 0;
        nodes.push(
          node('Conv', convInputs, convOut, { kernel_shape: kernel, pads: [pad, padW, pad, padW] }),
        );
        if (activation === 'relu') nodes.push(node('Relu', [convOut], name));
        else if (activation !== 'linear')
          throw new Error(`layer ${name}: activation ${activation}`);
        break;
      }
      case 'Activation':
        if (layer.config.activation !== 'relu')
          throw new Error(`layer ${name}: activation ${layer.config.activation}`);
        nodes.push(node('Relu', inputs, name));
        break;
      case 'Concatenate':
        if (layer.config.axis !== 3 && layer.config.axis !== -1)
          throw new Error(`layer ${name}: concatenation on axis ${layer.config.axis}`);
        nodes.push(node('Concat', inputs, name, { axis: 1 }));
        break;
      case 'Add':
        nodes.push(node(inputs.length === 2 ? 'Add' : 'Sum', inputs, name));
        break;
      case 'UpSampling2D': {
        if (upsampledBy.has(name)) break; // written with the convolution that reads it
        const [sy, sx] = layer.config.size ?? [2, 2];
        if ((layer.config.interpolation ?? 'nearest') !== 'nearest')
          throw new Error(`layer ${name}: ${layer.config.interpolation} upsampling`);
        initializers.push(floatTensor(`${name}/scales`, [4], Float32Array.from([1, 1, sy!, sx!])));
        // Asymmetric coordinates, floored: each pixel repeated, exactly as Keras does.
        nodes.push(
          node('Resize', [inputs[0]!, '', `${name}/scales`], name, {
            mode: 'nearest',
            coordinate_transformation_mode: 'asymmetric',
            nearest_mode: 'floor',
          }),
        );
        break;
      }
      case 'MultiplyBeta':
        initializers.push(floatTensor(`${name}/beta`, [], Float32Array.of(layer.config.beta!)));
        nodes.push(node('Mul', [inputs[0]!, `${name}/beta`], name));
        break;
      case 'PixelShuffle2x':
      case 'PixelShuffle3x':
      case 'PixelShuffle4x':
      case 'PixelShuffle8x':
        // TF.js's depthToSpace on NHWC orders channels as ONNX's DCR mode does on NCHW.
        nodes.push(
          node('DepthToSpace', inputs, name, { blocksize: layer.config.scale!, mode: 'DCR' }),
        );
        break;
      default:
        throw new Error(`layer ${name}: ${layer.class_name} is not known to the converter`);
    }
  }
  if (range === 255) nodes.push(node('Transpose', [outputName], 'output', { perm: [0, 2, 3, 1] }));
  else {
    initializers.push(floatTensor('from-range', [], Float32Array.of(255 / range)));
    nodes.push(node('Mul', [outputName, 'from-range'], `${outputName}/0-255`));
    nodes.push(node('Transpose', [`${outputName}/0-255`], 'output', { perm: [0, 2, 3, 1] }));
  }

  return onnxModel('refract layers-to-onnx', {
    nodes,
    initializers,
    inputs: [imageValue('input', 3)],
    outputs: [imageValue('output', 3)],
  });
}
