import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../lib/app-error.js';
import { ChromiumPages, type RenderRequest } from './chromium-pages.js';

/** What the server asks of the render thread. */
export type ThreadRequest =
  { type: 'render'; id: number; request: RenderRequest } | { type: 'close' };

/** What the thread answers: a render's image, then its page reset; or why it failed. */
export type ThreadAnswer =
  | { id: number; image: Uint8Array }
  | { id: number; reset: true }
  | {
      id: number;
      error: {
        status: number;
        code: AppError['code'];
        message: string;
        headers: Record<string, string>;
      };
    };

const port = parentPort!;
const pages = new ChromiumPages((workerData as { executablePath: string }).executablePath);

/** An image's own bytes, movable to the server's thread without a copy. */
function ownBytes(image: Buffer): Uint8Array {
  const whole = image.byteOffset === 0 && image.byteLength === image.buffer.byteLength;
  return whole ? new Uint8Array(image.buffer) : new Uint8Array(image);
}

port.on('message', async (message: ThreadRequest) => {
  if (message.type === 'close') {
    await pages.close().catch(() => undefined);
    return port.close();
  }
  const { id, request } = message;
  try {
    const { image, reset } = await pages.render(request);
    const bytes = ownBytes(image);
    port.postMessage({ id, image: bytes } satisfies ThreadAnswer, [bytes.buffer as ArrayBuffer]);
    await reset;
    port.postMessage({ id, reset: true } satisfies ThreadAnswer);
  } catch (err) {
    const known =
      err instanceof AppError
        ? err
        : new AppError(422, 'processing_failed', 'This HTML could not be rendered');
    const { status, code, message: text, headers } = known;
    port.postMessage({
      id,
      error: { status, code, message: text, headers },
    } satisfies ThreadAnswer);
  }
});
