import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { bearer, registerUser } from '../test/accounts.js';
import { hasFfmpeg, pngBytes } from '../test/image-fixtures.js';
import { ended, until } from '../test/jobs.js';
import { testVideo } from '../test/media-fixtures.js';
import { postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { createMetrics } from './metrics.js';
import { serveMetricsPort } from './metrics-routes.js';

const TOKEN = 'metrics-token-of-the-tests-0123';

/** One sample of the Prometheus text: the series whose labels are exactly these (0 if absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    const same =
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, value]) => found[key] === value);
    if (same) return Number(match[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: TOKEN, REDIS_URL: '', LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => t.close());

  it('refuses a caller without the token, with another, or with a session (401)', async () => {
    const { token } = await registerUser(t.app);
    for (const headers of [{}, bearer('a-wrong-token-of-the-same-size!'), bearer(token)]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      expect([res.statusCode, res.json().code]).toEqual([401, 'unauthorized']);
      expect(res.body).not.toContain('refract_');
    }
  });

  it.skipIf(!hasFfmpeg)(
    'counts a convert, a refused upload and an async video job, by exactly those',
    async () => {
      const { token } = await registerUser(t.app);
      const png = await pngBytes();
      const before = await scrape();
      const converted = await postForm(t.app, '/api/convert', {
        token,
        fields: { format: 'webp' },
        file: { content: png },
      });
      expect(converted.statusCode).toBe(200);
      const refused = await postForm(t.app, '/api/rotate', {
        token,
        file: { content: Buffer.alloc(10e6 + 1, 1) },
      });
      expect(refused.json().code).toBe('file_too_large');
      const submitted = await postForm(t.app, '/api/video/convert-video?async=1', {
        token,
        fields: { format: 'webm' },
        file: { field: 'video', content: testVideo(1) },
      });
      expect(submitted.statusCode, submitted.body).toBe(202);
      expect((await ended(t, token, submitted.json().jobId)).status).toBe('done');
      const after = await until(async () => {
        const text = await scrape();
        // The job's end is counted once its run has returned, a moment after the record says so.
        return sample(text, 'refract_jobs_ended_total', { tool: 'convertVideo', outcome: 'done' }) >
          sample(before, 'refract_jobs_ended_total', { tool: 'convertVideo', outcome: 'done' })
          ? text
          : undefined;
      }, 'the job to be counted');

      const moved = (name: string, labels: Record<string, string> = {}) =>
        sample(after, name, labels) - sample(before, name, labels);
      const requests = 'refract_http_request_duration_seconds_count';
      expect(moved(requests, { method: 'POST', route: '/api/convert', status: '200' })).toBe(1);
      expect(moved(requests, { method: 'POST', route: '/api/rotate', status: '413' })).toBe(1);
      expect(
        moved(requests, { method: 'POST', route: '/api/video/convert-video', status: '202' }),
      ).toBe(1);
      expect(moved('refract_http_errors_total', { code: 'file_too_large', status: '413' })).toBe(1);
      expect(moved('refract_quota_charges_total', { service: 'convert-from-jpg' })).toBe(1);
      expect(moved('refract_quota_charges_total', { service: 'modify-rotate' })).toBe(0);
      expect(moved('refract_quota_charges_total', { service: 'convert-video' })).toBe(1);
      const job = { lane: 'media', tool: 'convertVideo' };
      expect(moved('refract_job_wait_seconds_count', job)).toBe(1);
      expect(moved('refract_job_run_seconds_count', { ...job, outcome: 'done' })).toBe(1);
      expect(moved('refract_jobs_ended_total', { tool: 'convertVideo', outcome: 'done' })).toBe(1);
      expect(moved('refract_upload_bytes_total', { kind: 'form' })).toBeGreaterThanOrEqual(
        png.length,
      );
      expect(sample(after, 'refract_uploads_in_flight')).toBe(0);
      expect(sample(after, 'refract_engine_available', { engine: 'ffmpeg' })).toBe(1);
      expect(sample(after, 'refract_image_slots', { state: 'busy' })).toBe(0);
      // prom-client's own: memory and the event loop's delay.
      expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(after).toContain('nodejs_eventloop_lag_seconds');
    },
  );
});

describe('metrics of a process', () => {
  it('are not served without METRICS_TOKEN', async () => {
    const t = await createTestApp('sqlite');
    try {
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('show a missing engine as 0, so its loss can raise an alert', async () => {
    const t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: TOKEN },
      engines: { ffmpeg: { available: false, version: null } },
    });
    try {
      const text = (await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) })).body;
      expect(sample(text, 'refract_engine_available', { engine: 'ffmpeg' })).toBe(0);
      expect(sample(text, 'refract_engine_available', { engine: 'sharp' })).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('are served on METRICS_PORT, on loopback, asking for the token when there is one', async () => {
    for (const token of [undefined, TOKEN]) {
      // A port of its own each time: fetch keeps connections to an address it has used.
      const port = await freePort();
      const config = loadConfig({
        METRICS_PORT: String(port),
        ...(token ? { METRICS_TOKEN: token } : {}),
      });
      const metrics = createMetrics(config);
      const server = (await serveMetricsPort(config, metrics, { info: () => {} }))!;
      try {
        expect(server.address()).toMatchObject({ address: '127.0.0.1', port });
        const open = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(open.status).toBe(token ? 401 : 200);
        const withToken = await fetch(`http://127.0.0.1:${port}/metrics`, {
          headers: bearer(TOKEN),
        });
        expect(await withToken.text()).toContain('process_resident_memory_bytes');
        expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(token ? 401 : 404);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
