/**
 * face-api's SSD MobileNet v1 face detector (its weights as @vladmandic/face-api ships them) written
 * as an ONNX model, so onnxruntime's native runtime runs the very weights of the package: nothing
 * is downloaded and no converted file is kept. The network is face-api's own, layer for layer
 * (src/ssdMobilenetv1: mobileNetV1, predictionLayer, boxPredictionLayer): a 3×3 convolution, 13
 * depthwise-separable pairs, 8 more convolutions, and 6 box predictors. Each batch norm is folded
 * into the depthwise convolution before it. The graph takes the 512 × 512 image face-api makes
 * (padded square, resized, scaled to −1…1) as NCHW, and gives each of the 5,118 anchors' box
 * encoding and class logits; decoding and suppression are done by the caller (onnx-face-worker).
 */
import {
  floatTensor,
  floatValue,
  hwioToOihw,
  int64Tensor,
  node,
  onnxModel,
} from '../onnx/onnx-proto.js';
import type { Weight } from '../onnx/tfjs-weights.js';

/** The side face-api resizes every image to. */
export const SSD_SIDE = 512;
/** face-api's batch norm epsilon (mobileNetV1.ts). */
const EPSILON = 0.0010000000474974513;

/** The anchors, [ymin, xmin, ymax, xmax] each, relative to the 512 px square. */
export const anchorsOf = (weights: Map<string, Weight>) => weights.get('Output/extra_dim')!.values;

export function ssdToOnnx(weights: Map<string, Weight>): Uint8Array {
  const nodes: Uint8Array[] = [];
  const initializers: Uint8Array[] = [
    floatTensor('zero', [], Float32Array.of(0)),
    floatTensor('six', [], Float32Array.of(6)),
    int64Tensor('boxes-shape', [1, -1, 4]),
    int64Tensor('classes-shape', [1, -1, 3]),
  ];
  const weight = (name: string) => {
    const found = weights.get(name);
    if (!found) throw new Error(`the model has no weight ${name}`);
    return found;
  };

  /** A 'same' convolution with a bias (its kernel [h, w, in, out] as TF keeps it). */
  function conv(input: string, prefix: string, kernel: Weight, bias: Float32Array, stride = 1) {
    const w = hwioToOihw(kernel);
    initializers.push(floatTensor(`${prefix}/kernel`, w.dims, w.values));
    initializers.push(floatTensor(`${prefix}/bias`, [bias.length], bias));
    nodes.push(
      node('Conv', [input, `${prefix}/kernel`, `${prefix}/bias`], prefix, {
        kernel_shape: w.dims.slice(2),
        strides: [stride, stride],
        // TF's 'same': an odd padding puts its extra pixel after, as SAME_UPPER does.
        auto_pad: 'SAME_UPPER',
      }),
    );
    return prefix;
  }

  const relu6 = (input: string) => {
    nodes.push(node('Clip', [input, 'zero', 'six'], `${input}/relu6`));
    return `${input}/relu6`;
  };

  /** face-api's pointwiseConvLayer: convolution, its folded batch norm offset, ReLU6. */
  const pointwise = (input: string, prefix: string, stride = 1) =>
    relu6(
      conv(
        input,
        prefix,
        weight(`${prefix}/weights`),
        weight(`${prefix}/convolution_bn_offset`).values,
        stride,
      ),
    );

  /** face-api's depthwiseConvLayer: a 3×3 per-channel convolution, batch norm, ReLU6. */
  function depthwise(input: string, prefix: string, stride: number) {
    const kernel = weight(`${prefix}/depthwise_weights`);
    const [h, w, channels] = kernel.shape as [number, number, number];
    const [gamma, beta, mean, variance] = ['gamma', 'beta', 'moving_mean', 'moving_variance'].map(
      (name) => weight(`${prefix}/BatchNorm/${name}`).values,
    ) as [Float32Array, Float32Array, Float32Array, Float32Array];
    const values = new Float32Array(channels * h * w);
    const bias = new Float32Array(channels);
    for (let c = 0; c < channels; c += 1) {
      const scale = gamma[c]! / Math.sqrt(variance[c]! + EPSILON);
      bias[c] = beta[c]! - mean[c]! * scale;
      for (let y = 0; y < h; y += 1)
        for (let x = 0; x < w; x += 1)
          values[(c * h + y) * w + x] = kernel.values[(y * w + x) * channels + c]! * scale;
    }
    initializers.push(floatTensor(`${prefix}/kernel`, [channels, 1, h, w], values));
    initializers.push(floatTensor(`${prefix}/bias`, [channels], bias));
    nodes.push(
      node('Conv', [input, `${prefix}/kernel`, `${prefix}/bias`], prefix, {
        kernel_shape: [h, w],
        strides: [stride, stride],
        group: channels,
        auto_pad: 'SAME_UPPER',
      }),
    );
    return relu6(prefix);
  }

  // mobileNetV1: strides of 2 at pairs 2, 4, 6 and 12; pair 11's output feeds a predictor.
  let out = pointwise('input', 'MobilenetV1/Conv2d_0_pointwise', 2);
  let conv11 = '';
  for (let pair = 1; pair <= 13; pair += 1) {
    const stride = [2, 4, 6, 12].includes(pair) ? 2 : 1;
    out = depthwise(out, `MobilenetV1/Conv2d_${pair}_depthwise`, stride);
    out = pointwise(out, `MobilenetV1/Conv2d_${pair}_pointwise`);
    if (pair === 11) conv11 = out;
  }

  // predictionLayer: four more scales, each a 1×1 then a 3×3 convolution of stride 2.
  const scales = [conv11, out];
  let x = out;
  for (let layer = 0; layer < 8; layer += 1) {
    x = pointwise(x, `Prediction/Conv2d_${layer}_pointwise`, layer % 2 === 1 ? 2 : 1);
    if (layer % 2 === 1) scales.push(x);
  }

  // boxPredictionLayer per scale: NCHW back to TF's NHWC order, then one row per anchor.
  const boxes: string[] = [];
  const classes: string[] = [];
  scales.forEach((input, index) => {
    for (const [kind, rows, shape] of [
      ['BoxEncodingPredictor', boxes, 'boxes-shape'],
      ['ClassPredictor', classes, 'classes-shape'],
    ] as const) {
      const prefix = `Prediction/BoxPredictor_${index}/${kind}`;
      const conv1 = conv(
        input,
        prefix,
        weight(`${prefix}/weights`),
        weight(`${prefix}/biases`).values,
      );
      nodes.push(node('Transpose', [conv1], `${prefix}/nhwc`, { perm: [0, 2, 3, 1] }));
      nodes.push(node('Reshape', [`${prefix}/nhwc`, shape], `${prefix}/rows`));
      rows.push(`${prefix}/rows`);
    }
  });
  nodes.push(node('Concat', boxes, 'box_encodings', { axis: 1 }));
  nodes.push(node('Concat', classes, 'class_logits', { axis: 1 }));

  return onnxModel('refract ssd-to-onnx', {
    nodes,
    initializers,
    inputs: [floatValue('input', [1, 3, SSD_SIDE, SSD_SIDE])],
    outputs: [
      floatValue('box_encodings', [1, 'anchors', 4]),
      floatValue('class_logits', [1, 'anchors', 3]),
    ],
  });
}
