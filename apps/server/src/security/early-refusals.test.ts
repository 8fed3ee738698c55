import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toolById } from '@refract/contracts';
import { registerUser } from '../test/accounts.js';
import { receivingSlots } from '../test/jobs.js';
import { fetchForm, leftIn } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const MB = 1024 * 1024;

/**
 * Node's fetch sends a whole body before it reads the answer: a refusal sent before the body was
 * read must still reach it (plugins/lingering-close.ts).
 */
describe('early refusals reach a client that sends its whole body first (fetch)', () => {
  let t: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerUser(t.app)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('401 for an upload without a token', async () => {
    const res = await fetchForm(`${base}/api/rotate`, [
      { field: 'image', name: 'a.png', bytes: 24 * MB },
    ]);
    expect(res.status, res.error).toBe(401);
    expect(res.body?.code).toBe('unauthorized');
  });

  it('413 file_too_large for a file past the tool limit', async () => {
    const limit = toolById('rotate').maxUploadBytes;
    const res = await fetchForm(
      `${base}/api/rotate`,
      [{ field: 'image', name: 'a.png', bytes: limit + 24 * MB }],
      token,
      { angle: '90' },
    );
    expect(res.status, res.error).toBe(413);
    expect(res.body?.code).toBe('file_too_large');
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  it('429 with Retry-After while the user has five uploads under way', async () => {
    const user = await registerUser(t.app);
    await receivingSlots(t, user.user._id);
    const res = await fetchForm(
      `${base}/api/audio/convertaudio`,
      [{ field: 'audio', name: 'a.wav', bytes: 24 * MB }],
      user.token,
      { format: 'mp3' },
    );
    expect(res.status, res.error).toBe(429);
    expect(res.body?.code).toBe('too_many_requests');
    expect(res.headers?.['retry-after']).toBe('10');
  });

  it('413 batch_too_large for more files than the plan takes', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({
      field: 'file',
      name: `b${i}.png`,
      bytes: 5 * MB,
    }));
    const res = await fetchForm(`${base}/api/batch/rotate`, files, token, { angle: '90' });
    expect(res.status, res.error).toBe(413);
    expect(res.body?.code).toBe('batch_too_large');
  });
});
