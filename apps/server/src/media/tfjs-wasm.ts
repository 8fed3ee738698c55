import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * TensorFlow.js on its WebAssembly backend, as each model's worker thread loads it (face
 * detection, person segmentation; model-worker.ts). The .wasm ships in
 * @tensorflow/tfjs-backend-wasm and is loaded from node_modules by path: nothing is downloaded,
 * at install or at run time. Each worker has its own runtime, so the Emscripten loader's
 * process-wide error handlers live and die with that worker, never on the server's thread.
 */
const require = createRequire(import.meta.url);
export const TFJS_WASM_FILE = '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm';

/** The modules' paths a model's worker requires, and the directory of the .wasm. */
export const tfjsPaths = () => ({
  tfjs: require.resolve('@tensorflow/tfjs'),
  tfjsWasm: require.resolve('@tensorflow/tfjs-backend-wasm'),
  wasmDir: dirname(require.resolve(TFJS_WASM_FILE)),
});

/**
 * The start both models' workers share (CommonJS, after MODEL_WORKER_SERVE): the runtime on its
 * WebAssembly backend.
 */
export const TFJS_WORKER_START = `
const tf = require(workerData.tfjs);
require(workerData.tfjsWasm).setWasmPaths(workerData.wasmDir + '/');
const backend = (async () => {
  if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
  await tf.ready();
})();
`;
