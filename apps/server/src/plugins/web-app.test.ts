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

  it('has no route of its own for a compressed form (the file it compresses is asked for)', async () => {
    // A route is a GET and a HEAD held in the router for good: the build's 650 compressed and
    // prerendered files held about 10 MB of it.
    expect(t.app.hasRoute({ method: 'GET', url: '/assets/index-AbC123.js' })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/assets/index-AbC123.js.br' })).toBe(false);
    expect(t.app.hasRoute({ method: 'GET', url: '/assets/index-AbC123.js.gz' })).toBe(false);
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

describe('the public pages prerendered at build time, in the reader’s language', () => {
  let t: TestApp;
  const dist = webDist();
  /** dist/pages/<language>/<page>.html as apps/web/src/prerender writes them, compressed beside. */
  const prerendered = (language: string, name: string, heading: string) => {
    const html = `<!doctype html><html lang="${language}"><div id="root"><h1>${heading}</h1></div><script type="module" src="/assets/index-AbC123.js"></script>`;
    mkdirSync(join(dist, 'pages', language), { recursive: true });
    const path = join(dist, 'pages', language, `${name}.html`);
    writeFileSync(path, html);
    writeFileSync(`${path}.br`, brotliCompressSync(html));
    writeFileSync(`${path}.gz`, gzipSync(html));
  };
  prerendered('en', 'index', 'Every media tool you need');
  prerendered('ar', 'index', 'كل أدوات الوسائط');
  prerendered('en', 'plans', 'Plans');
  prerendered('en', 'privacy-policy', 'Privacy policy');
  prerendered('en', 'convert', 'Convert image');
  prerendered('de', 'plans', 'Tarife');
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', ...headers } });
  /** The page as the browser has it, before any script: its first heading. */
  const heading = (res: { rawPayload: Buffer }) =>
    brotliDecompressSync(res.rawPayload)
      .toString()
      .match(/<h1>(.*?)<\/h1>/)?.[1];

  it('sends the prerendered pages from memory, by address only: their files have no routes', async () => {
    expect(t.app.hasRoute({ method: 'GET', url: '/pages/en/plans.html' })).toBe(false);
    expect((await get('/pages/en/plans.html')).statusCode).toBe(404);
  });

  it('sends each public page with its content in the HTML', async () => {
    const pages = {
      '/': 'Every media tool you need',
      '/plans': 'Plans',
      '/privacy-policy': 'Privacy policy',
      '/convert': 'Convert image',
    };
    for (const [url, title] of Object.entries(pages)) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(heading(res), url).toBe(title);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      // Another reader of the same address may get another language.
      expect(res.headers.vary, url).toBe('accept-encoding, accept-language, cookie');
    }
    // Plain and gzip too.
    const plain = await get('/plans', { 'accept-encoding': 'identity' });
    expect(plain.body).toContain('<h1>Plans</h1>');
    const gzip = await get('/plans', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<h1>Plans</h1>');
  });

  it('picks the language the app will: its cookie, else the browser’s first, else English', async () => {
    expect(heading(await get('/', { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.8' }))).toBe(
      'كل أدوات الوسائط',
    );
    // The reader's choice wins over the browser's language.
    const chosen = { 'accept-language': 'ar', cookie: 'theme=x; refract.language=de' };
    expect(heading(await get('/plans', chosen))).toBe('Tarife');
    // A language Refract has not, a forged cookie: English.
    expect(heading(await get('/', { 'accept-language': 'fr-FR,ar;q=0.5' }))).toBe(
      'Every media tool you need',
    );
    expect(heading(await get('/', { cookie: 'refract.language=../../etc' }))).toBe(
      'Every media tool you need',
    );
  });

  it('sends the shell for a page not prerendered, and for a language a page lacks', async () => {
    for (const url of ['/login', '/dashboard', '/plans/']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(PAGE);
    }
    const res = await get('/convert', { 'accept-language': 'ar' });
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(PAGE);
    // An address outside the app is still the API's 404.
    expect((await get('/api/nothing-here')).statusCode).toBe(404);
  });
});
