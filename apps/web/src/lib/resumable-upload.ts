import { DetailedError, Upload } from 'tus-js-client';
import { ApiError, apiErrorFrom, authHeaders } from './api';

export interface TransferProgress {
  sent: number;
  total: number;
  /** Over the last few seconds; null until there is enough to tell. */
  bytesPerSecond: number | null;
  /** The connection dropped: waiting for the network, then resuming from the server's offset. */
  reconnecting: boolean;
}

export interface ResumableUpload {
  /** The finished upload's id, for the tool's form (`upload`). */
  done: Promise<string>;
  pause(): void;
  resume(): void;
}

/** Each request sends at most this much, so none comes near the server's UPLOAD_TIMEOUT. */
const CHUNK_BYTES = 50 * 1024 * 1024;
/** Waits between attempts while the server cannot be reached; the last repeats. */
const RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 20_000, 30_000];
/** The speed is measured over this window. */
const SPEED_WINDOW_MS = 5000;

const statusOf = (err: Error) =>
  err instanceof DetailedError ? (err.originalResponse?.getStatus() ?? 0) : 0;

/**
 * Worth another try: no answer (the network), a cut upload (408), a conflict on the offset
 * (409, the next try asks the server's), or a server error, except 507 (no room on its disk).
 */
const transient = (status: number) =>
  status === 0 ||
  status === 408 ||
  status === 409 ||
  status === 423 ||
  (status >= 500 && status !== 507);

function toApiError(err: Error): ApiError {
  const response = err instanceof DetailedError ? err.originalResponse : null;
  if (!response) return new ApiError(0, 'network', 'Could not reach the server');
  let body: unknown;
  try {
    body = JSON.parse(response.getBody());
  } catch {
    body = undefined;
  }
  return apiErrorFrom(response.getStatus(), body);
}

/**
 * Sends a file with the tus protocol to /api/uploads: in chunks, resuming from what the server
 * has after a dropped connection (by itself, once the network is back) or a reload of the page
 * (the same file chosen again: tus remembers its address in local storage). `signal` cancels
 * it and drops what the server holds of it.
 */
export function sendResumable(
  file: File,
  onProgress: (progress: TransferProgress) => void,
  signal: AbortSignal,
): ResumableUpload {
  let attempt = 0;
  let paused = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const samples: { at: number; sent: number }[] = [];
  let last: TransferProgress = {
    sent: 0,
    total: file.size,
    bytesPerSecond: null,
    reconnecting: false,
  };
  const report = (change: Partial<TransferProgress>) => {
    last = { ...last, ...change };
    onProgress(last);
  };

  let upload!: Upload;
  const done = new Promise<string>((resolve, reject) => {
    upload = new Upload(file, {
      endpoint: '/api/uploads',
      chunkSize: CHUNK_BYTES,
      // Retries are ours (onError): tus's own would give up while the browser is offline.
      retryDelays: null,
      metadata: { filename: file.name, filetype: file.type },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // The session may change while the upload lives: each request carries the current one.
      onBeforeRequest(request) {
        for (const [name, value] of Object.entries(authHeaders())) request.setHeader(name, value);
      },
      onProgress(sent, total) {
        const now = performance.now();
        samples.push({ at: now, sent });
        while (samples.length > 2 && now - samples[0]!.at > SPEED_WINDOW_MS) samples.shift();
        const first = samples[0]!;
        const seconds = (now - first.at) / 1000;
        attempt = 0;
        report({
          sent,
          total,
          reconnecting: false,
          bytesPerSecond: seconds >= 1 ? (sent - first.sent) / seconds : last.bytesPerSecond,
        });
      },
      onSuccess() {
        resolve(upload.url!.split('/').pop()!);
      },
      onError(err) {
        if (signal.aborted) return;
        if (!transient(statusOf(err))) return reject(toApiError(err));
        report({ reconnecting: true, bytesPerSecond: null });
        samples.length = 0;
        const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
        attempt += 1;
        retryTimer = setTimeout(retry, delay);
      },
    });
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(retryTimer);
        void upload.abort(true).catch(() => undefined);
        reject(new DOMException('Cancelled', 'AbortError'));
      },
      { once: true },
    );
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!signal.aborted) upload.start();
      });
  });

  function retry() {
    clearTimeout(retryTimer);
    if (!paused && !signal.aborted) upload.start();
  }
  // Back online: resume at once rather than at the end of the wait.
  const onOnline = () => {
    if (last.reconnecting) retry();
  };
  window.addEventListener('online', onOnline);
  done.then(
    () => window.removeEventListener('online', onOnline),
    () => window.removeEventListener('online', onOnline),
  );

  return {
    done,
    pause() {
      paused = true;
      clearTimeout(retryTimer);
      void upload.abort(false);
    },
    resume() {
      paused = false;
      upload.start();
    },
  };
}
