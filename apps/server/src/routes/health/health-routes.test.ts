import { afterAll, beforeAll, expect, it } from 'vitest';
import { healthSchema } from '@refract/contracts';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('GET /api/health', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers with the database, queue and the engines found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = healthSchema.parse(res.json());
    expect(body.db).toBe(kind);
    expect(body.queue).toBe(process.env.REDIS_URL ? 'bullmq' : 'local');
    expect(body.engines.sharp.available).toBe(true);
    expect(body.engines.sharp.libvips).toMatch(/^\d+\.\d+/);
    expect(body.engines.magick.available).toBe(true);
    expect(body.engines.faces).toMatchObject({ available: true, version: expect.any(String) });
    expect(body.engines.segmentation).toEqual({
      available: true,
      version: 'mediapipe-selfie-segmentation-general',
    });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reports a missing engine instead of failing', async () => {
    const missing = await createTestApp(kind, {
      env: { FFMPEG_PATH: '/nonexistent/ffmpeg', CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    try {
      // Engines are detected once per process in tests, so detect these two directly.
      const { detectEngines } = await import('../../media/engines.js');
      const engines = await detectEngines({
        ffmpeg: '/nonexistent/ffmpeg',
        chromium: '/nonexistent/chromium',
      });
      expect(engines.ffmpeg).toEqual({ available: false, version: null });
      expect(engines.chromium).toEqual({ available: false, version: null });
      const res = await missing.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
    } finally {
      await missing.close();
    }
  });

  it('carries a request id, and keeps a well-formed one from the caller', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a\nb<script>' },
    });
    expect(hostile.headers['x-request-id']).not.toContain('<');
  });
});
