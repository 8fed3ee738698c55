import { parentPort } from 'node:worker_threads';
import type { TransferListItem } from 'node:worker_threads';

/**
 * The worker's side of ModelWorker's protocol, for a model's worker written as one of our own
 * modules (started by `startModuleWorker`): each `{ id, ...input }` is answered with
 * `{ id, result }`, transferring what `infer` lists, or `{ id, error }`. The TF.js models'
 * workers, written as code strings, carry the same few lines as MODEL_WORKER_SERVE.
 */
export function serveModel<Input>(
  infer: (input: Input) => Promise<{ result: unknown; transfer?: TransferListItem[] }>,
) {
  parentPort!.on('message', async ({ id, ...input }: { id: number } & Input) => {
    try {
      const { result, transfer } = await infer(input as Input);
      parentPort!.postMessage({ id, result }, transfer);
    } catch (err) {
      parentPort!.postMessage({ id, error: String((err as Error)?.message ?? err) });
    }
  });
}
