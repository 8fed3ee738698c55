import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MEDIA_MAX_BYTES } from '@refract/contracts';
import { bearer, registerUser } from '../test/accounts.js';
import { pngBytes } from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { TOOL_REGISTRY } from '../tools/registry.js';

describe('hostile uploads', () => {
  let t: TestApp;
  let token: string;
  const tmpLeft = () => leftIn(t.database.options.dataDir, 'tmp');
  const usesLeft = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
      .remainingImages;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { UPLOAD_IDLE_TIMEOUT: '1', UPLOAD_TIMEOUT: '3' } });
    token = (await registerUser(t.app)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers a zero-byte file with 400 no_file on every tool', async () => {
    for (const tool of TOOL_REGISTRY) {
      const res = await postForm(t.app, tool.path, {
        token,
        file: { field: tool.fileField, content: Buffer.alloc(0) },
      });
      expect([tool.path, res.statusCode, res.json().code]).toEqual([tool.path, 400, 'no_file']);
    }
  });

  it('cuts off a file one byte over each limit with 413 file_too_large, charging nothing', async () => {
    const before = await usesLeft();
    // Audio and video tools take what the user's plan does: Basic's here.
    const limits = new Map(
      TOOL_REGISTRY.map((tool) => [tool.maxBytes ?? DEFAULT_MEDIA_MAX_BYTES, tool]),
    );
    for (const [maxBytes, tool] of limits) {
      const res = await postForm(t.app, tool.path, {
        token,
        file: { field: tool.fileField, content: Buffer.alloc(maxBytes + 1, 7) },
      });
      expect([tool.path, res.statusCode, res.json().code]).toEqual([
        tool.path,
        413,
        'file_too_large',
      ]);
    }
    // At the limit exactly the size is fine (these bytes are simply no image).
    const upscale = TOOL_REGISTRY.find((tool) => tool.path === '/api/upscale')!;
    const atLimit = await postForm(t.app, upscale.path, {
      token,
      file: { content: Buffer.alloc(upscale.maxBytes!, 7) },
    });
    expect(atLimit.json().code).toBe('unsupported_media_type');
    expect(await usesLeft()).toBe(before);
    await vi.waitFor(() => expect(tmpLeft()).toEqual([]));
  });

  it('refuses a form with 1000 parts with 413 before reading them all', async () => {
    const fields = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`field${i}`, 'x']));
    const res = await postForm(t.app, '/api/convert', {
      token,
      fields,
      file: { content: await pngBytes() },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    await vi.waitFor(() => expect(tmpLeft()).toEqual([]));
  });

  it('answers a text field where the file should be with 400 no_file', async () => {
    const res = await postForm(t.app, '/api/convert', {
      token,
      fields: { format: 'png', image: (await pngBytes()).toString('latin1') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('no_file');
  });

  /** Starts an upload of `declared` bytes by hand, sending only `sent` of them at first. */
  function startUpload(declared: number) {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    const boundary = 'stall';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    socket.write(
      `POST /api/convert HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${declared}\r\n\r\n${head}`,
    );
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
    return { socket, closed };
  }

  it('answers a stalled upload with 408 upload_timeout and closes it, leaving nothing', async () => {
    const before = await usesLeft();
    const upload = startUpload(100_000);
    upload.socket.write(Buffer.alloc(5000, 1));
    const answer = await upload.closed;
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer).toContain('"code":"upload_timeout"');
    expect(answer).toContain('nothing arrived for 1 s');
    await vi.waitFor(() => expect(tmpLeft()).toEqual([]));
    expect(await usesLeft()).toBe(before);
  });

  it('cuts off an upload that drips in slower than the whole-request limit', async () => {
    const upload = startUpload(100_000);
    const drip = setInterval(() => upload.socket.write('x'), 200);
    const answer = await upload.closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer).toContain('took longer than 3 s');
    await vi.waitFor(() => expect(tmpLeft()).toEqual([]));
  });
});
