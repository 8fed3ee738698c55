import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { followEvents } from './follow-events';

/**
 * The web app's job and batch streams through a restart and an outage, against a
 * real HTTP server that answers the way a draining web process and a database outage do.
 */
interface State {
  status: string;
  progress: number;
}
const ended = (state: State) => state.status === 'done';

beforeAll(() => {
  // The browser's storage, which the API client reads the session token from.
  const items = new Map<string, string>();
  globalThis.localStorage ??= {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  } as Storage;
});

let server: Server | undefined;
afterEach(() => server?.close());

/** Serves `/api/jobs/j` and its events; each handler is called with how often it was asked. */
async function serve(handlers: {
  events(res: ServerResponse, n: number): void;
  state(res: ServerResponse, n: number): void;
}) {
  const asked = { events: 0, state: 0 };
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/api/jobs/j/events') handlers.events(res, ++asked.events);
    else handlers.state(res, ++asked.state);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/jobs/j`, asked };
}

const stream = (res: ServerResponse, events: [string, unknown][], retryAfterMs?: number) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const [event, data] of events)
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  if (retryAfterMs !== undefined)
    res.write(
      `retry: ${retryAfterMs}\nevent: retry\ndata: ${JSON.stringify({ reason: 'server_restarting', retryAfterMs })}\n\n`,
    );
  res.end();
};
const unavailable = (res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '10' });
  res.end(JSON.stringify({ error: 'The database is not answering.', code: 'service_unavailable' }));
};

describe('following a job', () => {
  it('a stream ended by `retry` (its server drains) is followed again, to the end', async () => {
    const { url, asked } = await serve({
      events: (res, n) =>
        n === 1
          ? stream(res, [['progress', { status: 'running', progress: 10 }]], 20)
          : stream(res, [
              ['progress', { status: 'running', progress: 60 }],
              ['end', { status: 'done', progress: 100 }],
            ]),
      // The restarting server's state is not asked for; a 503 here would end the follow.
      state: unavailable,
    });
    const seen: State[] = [];
    const last = await followEvents<State>(
      url,
      ended,
      (s) => seen.push(s),
      new AbortController().signal,
    );
    expect(last).toEqual({ status: 'done', progress: 100 });
    expect(seen.map((s) => s.progress)).toEqual([10, 60, 100]);
    expect(asked.events).toBe(2);
  });

  it('an outage (503 on the stream and the state) is waited out, not shown as a failure', async () => {
    const { url } = await serve({
      events: (res, n) =>
        n < 3 ? unavailable(res) : stream(res, [['end', { status: 'done', progress: 100 }]]),
      state: unavailable,
    });
    const last = await followEvents<State>(url, ended, () => {}, new AbortController().signal);
    expect(last.status).toBe('done');
  });

  it('stops when the page no longer follows', async () => {
    const { url } = await serve({ events: unavailable, state: unavailable });
    const abort = new AbortController();
    const following = followEvents<State>(url, ended, () => {}, abort.signal);
    abort.abort();
    await expect(following).rejects.toMatchObject({ name: 'AbortError' });
  });
});
