import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * TensorFlow.js on its WebAssembly backend, shared by every model in the process (face detection,
 * person segmentation). The .wasm ships in @tensorflow/tfjs-backend-wasm and is loaded from
 * node_modules by path: nothing is downloaded, at install or at run time.
 */
const require = createRequire(import.meta.url);
export const TFJS_WASM_FILE = '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm';

export type Tf = typeof import('@tensorflow/tfjs');

async function start(): Promise<Tf> {
  const tf = require('@tensorflow/tfjs') as Tf;
  const wasm = require('@tensorflow/tfjs-backend-wasm') as {
    setWasmPaths(prefix: string): void;
  };
  wasm.setWasmPaths(`${dirname(require.resolve(TFJS_WASM_FILE))}/`);
  // The Emscripten loader installs process-wide handlers that rethrow every uncaught error and
  // unhandled rejection; they are not ours to install, so they go again once it is loaded.
  const before = new Set([
    ...process.listeners('uncaughtException'),
    ...process.listeners('unhandledRejection'),
  ]);
  try {
    if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
    await tf.ready();
  } finally {
    for (const listener of process.listeners('uncaughtException'))
      if (!before.has(listener)) process.off('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection'))
      if (!before.has(listener)) process.off('unhandledRejection', listener);
  }
  return tf;
}

let started: Promise<Tf> | undefined;

/** The runtime, started once; a failed start is tried again on the next call. */
export function tensorflow(): Promise<Tf> {
  started ??= start().catch((err: unknown) => {
    started = undefined;
    throw err;
  });
  return started;
}
