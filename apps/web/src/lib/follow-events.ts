import { api, apiErrorFrom, ApiError, authHeaders } from './api';
import { filenameFrom, type ToolResponse } from './upload';

/** Answers that mean "not now" (a restart, an outage, a lost connection): try again. */
const isTransient = (err: unknown) =>
  err instanceof ApiError && (err.code === 'network' || err.status === 502 || err.status >= 503);

/** Waits `ms`, or rejects when `signal` aborts. */
function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('Cancelled', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Cancelled', 'AbortError'));
      },
      { once: true },
    );
  });
}

/**
 * Reads one connection of the stream: the ended state when an `end` came, or how long to wait
 * before following again when it stopped first (a `retry` event says why and when: the
 * database is out, or this server is restarting and another will answer).
 */
async function readStream<T>(
  path: string,
  hasEnded: (state: T) => boolean,
  onUpdate: (state: T) => void,
  signal: AbortSignal,
): Promise<{ ended: T } | { retryAfterMs: number }> {
  const response = await fetch(`${path}/events`, { headers: authHeaders(), signal });
  if (!response.ok || !response.body) return { retryAfterMs: 0 };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { retryAfterMs: 0 };
    buffer += value;
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const lines = block.split('\n');
      const data = lines.find((line) => line.startsWith('data: '));
      if (!data) continue;
      const payload = JSON.parse(data.slice(6)) as unknown;
      if (lines.includes('event: retry')) {
        await reader.cancel();
        return { retryAfterMs: (payload as { retryAfterMs?: number }).retryAfterMs ?? 1000 };
      }
      onUpdate(payload as T);
      if (hasEnded(payload as T)) return { ended: payload as T };
    }
  }
}

/**
 * Follows a job's or a batch's Server-Sent Events (`<path>/events`) until `hasEnded` says so.
 * EventSource cannot send the bearer token, so the stream is read with fetch. A stream that
 * stops early (a `retry` event, or a broken connection) is followed again after the wait it
 * names; while it cannot be had, the state at `<path>` is polled once a second. An outage or
 * a restart (503, no connection) is waited out, never shown as a failure or left frozen.
 */
export async function followEvents<T>(
  path: string,
  hasEnded: (state: T) => boolean,
  onUpdate: (state: T) => void,
  signal: AbortSignal,
): Promise<T> {
  for (;;) {
    let retryAfterMs = 1000;
    try {
      const outcome = await readStream(path, hasEnded, onUpdate, signal);
      if ('ended' in outcome) return outcome.ended;
      if (outcome.retryAfterMs > 0) {
        await pause(outcome.retryAfterMs, signal);
        continue; // a new stream, likely from another server
      }
    } catch (err) {
      if (signal.aborted) throw err;
    }
    // No stream now: the state itself, once, then the stream again.
    try {
      const state = await api<T>(path);
      onUpdate(state);
      if (hasEnded(state)) return state;
    } catch (err) {
      if (!isTransient(err)) throw err;
      retryAfterMs = 2000;
    }
    await pause(retryAfterMs, signal);
  }
}

/** A signed-in download (a job's result, a batch file or zip) under the server's name. */
export async function fetchDownload(path: string): Promise<ToolResponse> {
  const response = await fetch(path, { headers: authHeaders() });
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
