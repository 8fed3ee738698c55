import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { leftIn } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { toolById } from '@refract/contracts';
import { LINGER_MAX_BYTES } from '../plugins/lingering-close.js';

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
   * Sends a form with one file part of `bytes` (200 MB unless said) and keeps sending until the
   * server closes the connection; returns the answer and how many bytes the server let in. With
   * Content-Length declared, or `chunked` (no length: only reading the stream can stop it).
   */
  async function pushOversized({
    headers = '',
    path = '/api/convert',
    field = 'image',
    before = '',
    bytes = 200 * 1024 * 1024,
    chunked = false,
    // Goes on sending after the server's answer and half-close, as a client that sends its
    // whole body before it reads does.
    keepsSending = false,
  }) {
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: keepsSending });
    const boundary = 'big';
    const head =
      before.replaceAll('BOUNDARY', boundary) +
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    const length = chunked
      ? 'Transfer-Encoding: chunked'
      : `Content-Length: ${head.length + bytes}`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n${length}\r\n\r\n`,
    );
    // A chunk is framed by its length in hex and a line break.
    const send = (data: Buffer | string) =>
      socket.write(
        chunked
          ? Buffer.concat([
              Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`),
              Buffer.from(data),
              Buffer.from('\r\n'),
            ])
          : data,
      );
    let answer = '';
    let open = true;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => (open = false));
    socket.on('close', () => (open = false));
    send(head);
    const chunk = Buffer.alloc(256 * 1024, 7);
    let sent = 0;
    while (open && sent < bytes) {
      const flushed = send(chunk.subarray(0, bytes - sent));
      sent += Math.min(chunk.length, bytes - sent);
      if (!flushed)
        await new Promise<void>((resolve) => {
          // Whichever comes first; the other listener goes too, or one piled up per wait.
          const done = () => {
            socket.off('drain', done);
            socket.off('close', done);
            resolve();
          };
          socket.once('drain', done);
          socket.once('close', done);
        });
    }
    // Done sending (a half-open socket closes only when its own side ends too).
    socket.end();
    await new Promise((resolve) =>
      socket.destroyed ? resolve(null) : socket.once('close', resolve),
    );
    return { answer, sent };
  }

  it('stops reading a file past the limit and closes the connection (413)', async () => {
    const limit = toolById('convert').maxUploadBytes;
    const { answer, sent } = await pushOversized({ headers: `Authorization: Bearer ${token}\r\n` });
    expect(answer).toMatch(/^HTTP\/1.1 413/);
    expect(answer).toContain('"code":"file_too_large"');
    // The limit, plus what socket buffers hold: far from the 200 MB declared.
    expect(sent).toBeLessThan(limit + 32 * 1024 * 1024);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  it('refuses an anonymous upload without reading its body', async () => {
    const { answer, sent } = await pushOversized({});
    expect(answer).toMatch(/^HTTP\/1.1 401/);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it('reads the rest of a refused body only up to its bound, then cuts the connection', async () => {
    const { answer, sent } = await pushOversized({ keepsSending: true });
    expect(answer).toMatch(/^HTTP\/1.1 401/);
    // The bound, plus what socket buffers hold: far from the 200 MB sent at it.
    expect(sent).toBeLessThan(LINGER_MAX_BYTES + 32 * 1024 * 1024);
  });

  it("refuses a tool's file part under an unknown name without reading it (400 unknown_field)", async () => {
    // Chunked, so no Content-Length lets the server refuse the 300 MB before the part begins.
    const { answer, sent } = await pushOversized({
      headers: `Authorization: Bearer ${token}\r\n`,
      path: '/api/rotate',
      field: 'zzz',
      bytes: 300 * 1024 * 1024,
      chunked: true,
      before: '--BOUNDARY\r\nContent-Disposition: form-data; name="angle"\r\n\r\n90\r\n',
    });
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    expect(answer).toContain('"code":"unknown_field"');
    expect(answer).toContain('"fields":["zzz"]');
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  describe('a 300 MB part sent to a batch in chunks, with no Content-Length to refuse up front', () => {
    const batch = {
      path: '/api/batch/rotate',
      bytes: 300 * 1024 * 1024,
      chunked: true,
      before: '--BOUNDARY\r\nContent-Disposition: form-data; name="angle"\r\n\r\n90\r\n',
    };

    it('stops reading a batch file past the tool limit and closes the connection (413 file_too_large)', async () => {
      const limit = toolById('rotate').maxUploadBytes;
      const headers = `Authorization: Bearer ${token}\r\n`;
      const { answer, sent } = await pushOversized({ ...batch, headers, field: 'file' });
      expect(answer).toMatch(/^HTTP\/1.1 413/);
      expect(answer).toContain('"code":"file_too_large"');
      expect(sent).toBeLessThan(limit + 32 * 1024 * 1024);
      await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'jobs')).toEqual([]));
    });

    it('refuses a file part under an unknown name without reading it (400 unknown_field)', async () => {
      const headers = `Authorization: Bearer ${token}\r\n`;
      const { answer, sent } = await pushOversized({ ...batch, headers, field: 'other' });
      expect(answer).toMatch(/^HTTP\/1.1 400/);
      expect(answer).toContain('"code":"unknown_field"');
      expect(sent).toBeLessThan(32 * 1024 * 1024);
    });
  });
});
