import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthSchema, readinessSchema } from '@refract/contracts';
import { adminToken, bearer } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('GET /api/health', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers with the database, queue and the engines found (with versions, to an admin)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: bearer(await adminToken(t.app)),
    });
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
    // At the defaults: image work on every core, audio and video on half of them.
    const cores = availableParallelism();
    expect(body.workers).toEqual({
      image: cores,
      media: Math.max(1, Math.floor(cores / 2)),
      cores,
    });
  });

  it('shows how many jobs run at once to admins only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).not.toHaveProperty('workers');
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

describeEachDatabase('GET /api/health/live and /api/health/ready', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('is live, and ready when the database, the queue and DATA_DIR answer', async () => {
    const live = await t.app.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    const body = readinessSchema.parse(ready.json());
    expect(body.status).toBe('ready');
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.dataDir).toEqual({ ok: true });
    expect(body.checks.queue).toEqual(process.env.REDIS_URL ? { ok: true } : undefined);
  });

  it('is not ready on another volume than the one recorded, and says why', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'refract-other-volume-'));
    const other = await createTestApp(kind, {
      database: t.database,
      env: { DATA_DIR: elsewhere },
    });
    try {
      const res = await other.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      const body = readinessSchema.parse(res.json());
      expect(body.status).toBe('not_ready');
      expect(body.checks.database.ok).toBe(true);
      expect(body.checks.dataDir.ok).toBe(false);
      expect(body.checks.dataDir.reason).toMatch(/does not see the volume the others share/);
      // The reason names no path of the server's disk.
      expect(res.body).not.toContain(elsewhere);
      // The original process is still ready: the other one did not take the marker over.
      expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
    } finally {
      await other.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('is not ready once the volume loses its marker (an unmounted share)', async () => {
    const marker = join(t.database.options.dataDir, '.refract-data-dir');
    const saved = readFileSync(marker);
    unlinkSync(marker);
    try {
      const res = await t.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.dataDir.ok).toBe(false);
    } finally {
      writeFileSync(marker, saved);
    }
    expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
  });
});

describe('GET /api/health/ready with Redis unreachable', () => {
  it('answers 503 naming Redis, within its deadline', async () => {
    // Port 1 on loopback: nothing listens, so every connection is refused.
    const t = await createTestApp('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await t.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      const body = readinessSchema.parse(res.json());
      expect(body.checks.queue?.ok).toBe(false);
      expect(body.checks.queue?.reason).toMatch(/^Redis /);
      expect(body.checks.database.ok).toBe(true);
      expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
