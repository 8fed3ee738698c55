import type { Job } from '@refract/contracts';
import { api } from './api';
import { fetchDownload, followEvents } from './follow-events';
import { postTool } from './upload';

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

const jobEnded = (job: Job) => job.status !== 'queued' && job.status !== 'running';

/** Follows a job's progress until it ends (SSE, or polling when the stream breaks). */
export const followJob = (id: string, onUpdate: (job: Job) => void, signal: AbortSignal) =>
  followEvents(`/api/jobs/${id}`, jobEnded, onUpdate, signal);

/** The finished job's file. */
export const jobResult = (id: string) => fetchDownload(`/api/jobs/${id}/result`);

export const cancelJob = (id: string) => api<Job>(`/api/jobs/${id}`, { method: 'DELETE' });
