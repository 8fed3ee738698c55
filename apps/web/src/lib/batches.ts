import { BATCH_FILES_HEADER, batchHasEnded, type Batch } from '@refract/contracts';
import { api } from './api';
import { followEvents } from './follow-events';
import { postTool } from './upload';

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

/** Follows a batch's progress until it ends (SSE, or polling when the stream breaks). */
export const followBatch = (id: string, onUpdate: (batch: Batch) => void, signal: AbortSignal) =>
  followEvents(`/api/batches/${id}`, batchHasEnded, onUpdate, signal);

export const cancelBatch = (id: string) => api<Batch>(`/api/batches/${id}`, { method: 'DELETE' });
