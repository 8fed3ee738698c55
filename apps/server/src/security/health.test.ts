import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthSchema } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  const engines = async (headers = {}) => {
    const res = await t.app.inject({ url: '/api/health', headers });
    expect(res.statusCode).toBe(200);
    return healthSchema.parse(res.json()).engines;
  };

  it('shows engine versions to an admin only: visitors and users see what is available', async () => {
    const user = await registerUser(t.app);
    const admin = await engines(bearer(await adminToken(t.app)));
    expect(admin.sharp.libvips).toMatch(/^\d+\.\d+/);
    expect(admin.ffmpeg.version).toMatch(/\d/);
    expect(admin.chromium.version).toMatch(/\d/);

    for (const seen of [await engines(), await engines(bearer(user.token))]) {
      expect(seen.sharp).toEqual({ available: true, version: null, libvips: null });
      for (const [name, engine] of Object.entries(admin)) {
        const { available } = engine;
        expect(seen[name as keyof typeof seen], name).toMatchObject({ available, version: null });
      }
    }
  });
});
