import { BATCH_FILES_HEADER, type Batch } from '@refract/contracts';
import { api, apiErrorFrom, authHeaders } from './api';
import { filenameFrom, postTool } from './upload';

/** A tool's batch endpoint: /api/convert → /api/batch/convert. */
export const batchEndpoint = (toolEndpoint: string) =>
  toolEndpoint.replace(/^\/api\//, '/api/batch/');

/**
 * Sends the tool's fields, then every file in a `file` part, with upload progress; the file
 * count is declared up front so the server refuses a batch over the plan before it is sent.
 */
export async function startBatch(
  toolEndpoint: string,
  fields: (form: FormData) => void,
  files: File[],
  onUploadProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<string> {
  const form = new FormData();
  fields(form);
  for (const file of files) form.append('file', file);
  const url = `${batchEndpoint(toolEndpoint)}?files=${files.length}`;
  const response = await postTool(url, form, onUploadProgress, signal, {
    [BATCH_FILES_HEADER]: String(files.length),
  });
  return (JSON.parse(await response.blob.text()) as { batchId: string }).batchId;
}

const ended = (batch: Batch) => batch.status === 'done' || batch.status === 'cancelled';

/**
 * Follows a batch's Server-Sent Events until it ends (read with fetch, as EventSource cannot
 * send the bearer token); if the stream breaks, the batch's state is polled instead.
 */
export async function followBatch(
  id: string,
  onUpdate: (batch: Batch) => void,
  signal: AbortSignal,
): Promise<Batch> {
  try {
    const response = await fetch(`/api/batches/${id}/events`, { headers: authHeaders(), signal });
    if (response.ok && response.body) {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const batch = JSON.parse(data.slice(6)) as Batch;
          onUpdate(batch);
          if (ended(batch)) return batch;
        }
      }
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  for (;;) {
    const batch = await api<Batch>(`/api/batches/${id}`);
    onUpdate(batch);
    if (ended(batch)) return batch;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
  }
}

export const cancelBatch = (id: string) => api<Batch>(`/api/batches/${id}`, { method: 'DELETE' });

/** Downloads one of the batch's files (or its zip) and saves it under the server's name. */
export async function saveBatchDownload(path: string, name?: string) {
  const response = await fetch(path, { headers: authHeaders() });
  if (!response.ok)
    throw apiErrorFrom(
      response.status,
      await response.json().catch(() => null),
      response.statusText,
    );
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name ?? filenameFrom(response.headers.get('content-disposition'));
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
