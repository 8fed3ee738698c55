import { api, apiErrorFrom, authHeaders } from './api';
import { filenameFrom, type ToolResponse } from './upload';

/**
 * Follows a job's or a batch's Server-Sent Events (`<path>/events`) until `hasEnded` says so.
 * EventSource cannot send the bearer token, so the stream is read with fetch; if it breaks,
 * the state at `<path>` is polled once a second instead.
 */
export async function followEvents<T>(
  path: string,
  hasEnded: (state: T) => boolean,
  onUpdate: (state: T) => void,
  signal: AbortSignal,
): Promise<T> {
  try {
    const response = await fetch(`${path}/events`, { headers: authHeaders(), signal });
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
          const state = JSON.parse(data.slice(6)) as T;
          onUpdate(state);
          if (hasEnded(state)) return state;
        }
      }
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  for (;;) {
    const state = await api<T>(path);
    onUpdate(state);
    if (hasEnded(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
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
