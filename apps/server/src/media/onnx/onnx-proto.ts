/**
 * The little of ONNX's protocol buffers our model writers need (layers-to-onnx for the upscaling
 * models, ssd-to-onnx for face detection): nodes, float weights, typed inputs and outputs, and
 * the model around them. Field numbers are those of onnx.proto.
 */

const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;
const ATTRIBUTE_INTS = 7;
/** ONNX IR version 8 and operator set 17: what every onnxruntime of the last years reads. */
const IR_VERSION = 8;
const OPSET = 17;

function varint(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`cannot write ${value}`);
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const int = (field: number, value: number) =>
  Uint8Array.from([...varint(field * 8), ...varint(value)]);
const float32 = (field: number, value: number) => {
  const out = new Uint8Array(5);
  out[0] = field * 8 + 5;
  new DataView(out.buffer).setFloat32(1, value, true);
  return out;
};
const bytes = (field: number, data: Uint8Array) =>
  join([Uint8Array.from([...varint(field * 8 + 2), ...varint(data.length)]), data]);
const text = (field: number, value: string) => bytes(field, new TextEncoder().encode(value));
const message = (field: number, parts: Uint8Array[]) => bytes(field, join(parts));

/** An attribute: a whole number, whole numbers, a string, or a float (`{ float: x }`). */
export type Attribute = number | number[] | string | { float: number };

function attribute(name: string, value: Attribute): Uint8Array {
  if (typeof value === 'string')
    return message(5, [text(1, name), int(20, ATTRIBUTE_STRING), text(4, value)]);
  if (typeof value === 'number')
    return message(5, [text(1, name), int(20, ATTRIBUTE_INT), int(3, value)]);
  if (!Array.isArray(value))
    return message(5, [text(1, name), int(20, ATTRIBUTE_FLOAT), float32(2, value.float)]);
  return message(5, [text(1, name), int(20, ATTRIBUTE_INTS), ...value.map((v) => int(8, v))]);
}

/** One operation; its output and the node are named alike. An input '' is an omitted one. */
export function node(
  op: string,
  inputs: string[],
  output: string,
  attributes: Record<string, Attribute> = {},
) {
  return message(1, [
    ...inputs.map((input) => text(1, input)),
    text(2, output),
    text(3, output),
    text(4, op),
    ...Object.entries(attributes).map(([name, value]) => attribute(name, value)),
  ]);
}

/** A float weight of the graph. */
export function floatTensor(name: string, dims: number[], data: Float32Array) {
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return message(5, [...dims.map((d) => int(1, d)), int(2, FLOAT), text(8, name), bytes(9, raw)]);
}

/** Whole numbers for the graph (a Reshape's shape). */
export function int64Tensor(name: string, values: number[]) {
  const raw = new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
  return message(5, [int(1, values.length), int(2, INT64), text(8, name), bytes(9, raw)]);
}

/** A TF kernel [height, width, in, out] as ONNX's Conv wants it: [out, in, height, width]. */
export function hwioToOihw(kernel: { shape: number[]; values: Float32Array }) {
  const [h, w, inputs, outputs] = kernel.shape as [number, number, number, number];
  const out = new Float32Array(kernel.values.length);
  for (let y = 0; y < h; y += 1)
    for (let x = 0; x < w; x += 1)
      for (let i = 0; i < inputs; i += 1)
        for (let o = 0; o < outputs; o += 1)
          out[((o * inputs + i) * h + y) * w + x] =
            kernel.values[((y * w + x) * inputs + i) * outputs + o]!;
  return { dims: [outputs, inputs, h, w], values: out };
}

/** A float input or output; a dimension given as a name may be any size. */
export function floatValue(name: string, dims: (number | string)[]) {
  const shape = message(
    2,
    dims.map((dim) => message(1, [typeof dim === 'number' ? int(1, dim) : text(2, dim)])),
  );
  return { name, bytes: message(2, [message(1, [int(1, FLOAT), shape])]) };
}

/** An NHWC float image of any size: [1, height, width, channels]. */
export const imageValue = (name: string, channels: number) =>
  floatValue(name, [1, 'height', 'width', channels]);

type Value = ReturnType<typeof floatValue>;

/** The model as ONNX bytes, ready for onnxruntime's `InferenceSession.create`. */
export function onnxModel(
  producer: string,
  graph: { nodes: Uint8Array[]; initializers: Uint8Array[]; inputs: Value[]; outputs: Value[] },
): Uint8Array {
  const valueInfo = (field: number, value: Value) =>
    message(field, [text(1, value.name), value.bytes]);
  return join([
    int(1, IR_VERSION),
    text(2, producer),
    message(7, [
      ...graph.nodes,
      text(2, 'refract'),
      ...graph.initializers,
      ...graph.inputs.map((value) => valueInfo(11, value)),
      ...graph.outputs.map((value) => valueInfo(12, value)),
    ]),
    message(8, [text(1, ''), int(2, OPSET)]),
  ]);
}
