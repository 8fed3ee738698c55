import type { Job } from '@refract/contracts';
import { api, apiErrorFrom, authHeaders } from './api';
import { filenameFrom, postTool, type ToolResponse } from './upload';

/** Sends an audio or video file as a job (`?async=1`), with upload progress; resolves with its id. */
export async function startJob(
  path: string,
  form: FormData,
  onUploadProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<string> {
  const response = await postTool(`${path}?async=1`, form, onUploadProgress, signal);
  return (JSON.parse(await response.blob.text()) as { jobId: string }).jobId;
}

/**
 * Follows a job's Server-Sent Events until it ends. EventSource cannot send the bearer token,
 * so the stream is read with fetch; if it breaks, the job's state is polled instead.
 */
export async function followJob(
  id: string,
  onUpdate: (job: Job) => void,
  signal: AbortSignal,
): Promise<Job> {
  try {
    const response = await fetch(`/api/jobs/${id}/events`, { headers: authHeaders(), signal });
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
          const job = JSON.parse(data.slice(6)) as Job;
          onUpdate(job);
          if (block.startsWith('event: end')) return job;
        }
      }
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  return pollJob(id, onUpdate, signal);
}

async function pollJob(id: string, onUpdate: (job: Job) => void, signal: AbortSignal) {
  for (;;) {
    const job = await api<Job>(`/api/jobs/${id}`);
    onUpdate(job);
    if (job.status !== 'queued' && job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
  }
}

/** The finished job's file. */
export async function jobResult(id: string): Promise<ToolResponse> {
  const response = await fetch(`/api/jobs/${id}/result`, { headers: authHeaders() });
  if (!response.ok)
    throw apiErrorFrom(
      response.status,
      await response.json().catch(() => null),
      response.statusText,
    );
  return {
    blob: await response.blob(),
    filename: filenameFrom(response.headers.get('content-disposition')),
    headers: (name) => response.headers.get(name),
  };
}

export const cancelJob = (id: string) => api<Job>(`/api/jobs/${id}`, { method: 'DELETE' });
