import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { leftIn } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { toolById } from '@refract/contracts';

/** What a raw socket gets back for `request`, and whether the server closed the connection. */
function rawExchange(port: number, request: string) {
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
  });
}

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('malformed and oversized requests', () => {
  let t: TestApp;
  let token: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerUser(t.app)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers malformed percent-encodings in our envelope, with the usual headers', async () => {
    for (const url of ['/api/%zz', '/api/health%', '/api/jobs/%E0%A4%A', '/api/%61dmin/%']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error: expect.any(String), code: 'validation_failed' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers a request that is not HTTP, and one with huge headers, in our envelope', async () => {
    const garbage = await rawExchange(port, 'HELLO\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400/);
    expect(envelopeOf(garbage)).toEqual({ error: expect.any(String), code: 'validation_failed' });

    const huge = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    const overflow = await rawExchange(port, huge);
    expect(overflow).toMatch(/^HTTP\/1.1 431/);
    expect(envelopeOf(overflow).code).toBe('payload_too_large');
  });

  /**
   * Declares a 200 MB upload and keeps sending until the server closes the connection; returns
   * the answer and how many bytes the server let in.
   */
  async function pushOversized(headers: string) {
    const declared = 200 * 1024 * 1024;
    const socket: Socket = connect(port, '127.0.0.1');
    const boundary = 'big';
    const partHead =
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    socket.write(
      `POST /api/convert HTTP/1.1\r\nHost: x\r\n${headers}` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n` +
        partHead,
    );
    let answer = '';
    let open = true;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => (open = false));
    socket.on('close', () => (open = false));
    const chunk = Buffer.alloc(256 * 1024, 7);
    let sent = partHead.length;
    while (open && sent < declared) {
      const flushed = socket.write(chunk.subarray(0, declared - sent));
      sent += Math.min(chunk.length, declared - sent);
      if (!flushed)
        await new Promise((resolve) => {
          socket.once('drain', resolve);
          socket.once('close', resolve);
        });
    }
    await new Promise((resolve) =>
      socket.destroyed ? resolve(null) : socket.once('close', resolve),
    );
    return { answer, sent };
  }

  it('stops reading a file past the limit and closes the connection (413)', async () => {
    const limit = toolById('convert').maxUploadBytes;
    const { answer, sent } = await pushOversized(`Authorization: Bearer ${token}\r\n`);
    expect(answer).toMatch(/^HTTP\/1.1 413/);
    expect(answer).toContain('"code":"file_too_large"');
    // The limit, plus what socket buffers hold: far from the 200 MB declared.
    expect(sent).toBeLessThan(limit + 32 * 1024 * 1024);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  it('refuses an anonymous upload without reading its body', async () => {
    const { answer, sent } = await pushOversized('');
    expect(answer).toMatch(/^HTTP\/1.1 401/);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });
});
