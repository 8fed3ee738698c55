import { useCallback, useEffect, useRef, useState } from 'react';
import type { Job } from '@refract/contracts';
import { ApiError } from '../../lib/api';
import { cancelJob, followJob, jobResult, startJob } from '../../lib/jobs';
import {
  sendResumable,
  type ResumableUpload,
  type TransferProgress,
} from '../../lib/resumable-upload';
import type { ToolResult } from './use-tool-run';

export type JobPhase = 'idle' | 'uploading' | 'processing' | 'done' | 'failed' | 'cancelled';

/** The file's part of a job's form: `audio` or `video`, whichever the page put in. */
const fileFieldOf = (form: FormData) => (form.has('video') ? 'video' : 'audio');

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/**
 * Runs a tool as a server job: upload (with progress), then processing (with the job's own
 * progress, live), then the file. Cancel stops whichever is under way. With `resumable` (audio
 * and video, which may be gigabytes), the file goes first as a resumable upload, which may be
 * paused and resumes by itself after a dropped connection; the form then names it.
 */
export function useJobRun(path: string, { resumable = false }: { resumable?: boolean } = {}) {
  const [phase, setPhase] = useState<JobPhase>('idle');
  const [upload, setUpload] = useState(0);
  const [transfer, setTransfer] = useState<TransferProgress | null>(null);
  const [paused, setPaused] = useState(false);
  const resumableRef = useRef<ResumableUpload | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [result, setResult] = useState<ToolResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** The job was cancelled after substantial work, so its use counts (the server's rule). */
  const [cancelledCharged, setCancelledCharged] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const cancelledRef = useRef(false);
  const uploadedRef = useRef(false);
  const jobIdRef = useRef<string | null>(null);
  const urlRef = useRef<string | null>(null);

  const reset = useCallback(() => {
    abortRef.current?.abort();
    cancelledRef.current = false;
    uploadedRef.current = false;
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    jobIdRef.current = null;
    resumableRef.current = null;
    setPhase('idle');
    setUpload(0);
    setTransfer(null);
    setPaused(false);
    setJob(null);
    setResult(null);
    setError(null);
    setCancelledCharged(false);
  }, []);

  useEffect(() => reset, [reset]);

  const run = useCallback(
    async (form: FormData) => {
      reset();
      const abort = new AbortController();
      abortRef.current = abort;
      setPhase('uploading');
      try {
        const source = resumable ? form.get(fileFieldOf(form)) : null;
        if (source instanceof File) {
          const sending = sendResumable(
            source,
            (progress) => {
              setTransfer(progress);
              setUpload(progress.total > 0 ? progress.sent / progress.total : 0);
            },
            abort.signal,
          );
          resumableRef.current = sending;
          const uploadId = await sending.done;
          resumableRef.current = null;
          form.delete(fileFieldOf(form));
          form.append('upload', uploadId);
        }
        const id = await startJob(
          path,
          form,
          (fraction) => {
            uploadedRef.current = fraction >= 1;
            setUpload(fraction);
          },
          abort.signal,
        );
        jobIdRef.current = id;
        // Cancelled after the last byte went but before the id came back: cancel it now.
        if (cancelledRef.current) return void (await cancelJob(id).catch(() => undefined));
        setUpload(1);
        setPhase('processing');
        const ended = await followJob(id, setJob, abort.signal);
        if (ended.status !== 'done') {
          throw new ApiError(
            422,
            (ended.error?.code ?? 'processing_failed') as ApiError['code'],
            ended.error?.message ?? '',
          );
        }
        const file = await jobResult(id);
        const url = URL.createObjectURL(file.blob);
        urlRef.current = url;
        setResult({ url, filename: file.filename, size: file.blob.size, headers: file.headers });
        setPhase('done');
      } catch (err) {
        if (abort.signal.aborted || isAbort(err)) return;
        setError(err);
        setPhase('failed');
      }
    },
    [path, reset, resumable],
  );

  /**
   * Stops the upload, or the job (the server kills ffmpeg and removes the files). A job that
   * finished first is not cancelled: its result follows, as it was charged.
   */
  const cancel = useCallback(async () => {
    cancelledRef.current = true;
    const id = jobIdRef.current;
    if (!id) {
      // Once the whole file is sent the server is creating the job; run() cancels it by id.
      if (!uploadedRef.current) abortRef.current?.abort();
      setPhase('cancelled');
      return;
    }
    const job = await cancelJob(id).catch(() => null);
    if (job?.status === 'done') return;
    setCancelledCharged(job?.charged === true);
    abortRef.current?.abort();
    setPhase('cancelled');
  }, []);

  const pause = useCallback(() => {
    resumableRef.current?.pause();
    setPaused(true);
  }, []);
  const resume = useCallback(() => {
    resumableRef.current?.resume();
    setPaused(false);
  }, []);

  return {
    phase,
    upload,
    transfer,
    paused,
    /** Set while a resumable upload is under way. */
    canPause: phase === 'uploading' && transfer !== null && upload < 1,
    pause,
    resume,
    progress: job?.progress ?? 0,
    job,
    cancelledCharged,
    result,
    error,
    run,
    cancel,
    reset,
    busy: phase === 'uploading' || phase === 'processing',
  };
}
