import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const SCRIPT = `console.log(${JSON.stringify('refract '.repeat(400))});`;
const PAGE = `<!doctype html><title>Refract</title><p>${'shell '.repeat(300)}</p>`;

/** A build as apps/web/vite.config.ts writes it: each text file with a .br and a .gz beside it. */
function webDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'refract-web-'));
  mkdirSync(join(dir, 'assets'));
  const write = (path: string, text: string) => {
    writeFileSync(join(dir, path), text);
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${path}.gz`), gzipSync(text));
  };
  write('index.html', PAGE);
  write('assets/index-AbC123.js', SCRIPT);
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  return dir;
}

describe('the web app: precompressed files and caching', () => {
  let t: TestApp;
  const dist = webDist();
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends a hashed script as brotli, gzip or plain by Accept-Encoding, cached for a year', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gzip = await get('/assets/index-AbC123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends the page of every client-side route compressed, never cached without asking', async () => {
    for (const url of ['/', '/pricing', '/tools/convert']) {
      const br = await get(url, 'br;q=1.0, gzip;q=0.8');
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(PAGE);
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
    }
    const gzip = await get('/pricing', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(PAGE);
    const plain = await get('/pricing', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(PAGE);
  });

  it('still sends security headers on compressed files', async () => {
    const page = await get('/pricing', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    // A script file is not a page: it gets the short set that lets a rendered answer do nothing.
    const script = await get('/assets/index-AbC123.js', 'br');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});
