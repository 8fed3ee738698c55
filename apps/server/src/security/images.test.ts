import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../test/accounts.js';
import { registerSubscriber } from '../test/plans.js';
import { pngBytes, solid } from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import * as hostile from './hostile-images.js';

const PASSWD = readFileSync('/etc/passwd', 'latin1');

/** Whether any trace of /etc/passwd is in the bytes: the text, or its hex (as CVE-2022-44268 leaks it). */
const leaksPasswd = (bytes: Buffer) => {
  const firstLine = PASSWD.split('\n')[0]!;
  const text = bytes.toString('latin1');
  return text.includes(firstLine) || text.includes(Buffer.from(firstLine).toString('hex'));
};

describe('hostile images', () => {
  let t: TestApp;
  let token: string;
  let bait: Server;
  let baitUrl: string;
  const hits: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'refract-hostile-'));

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
    bait = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    bait.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const convert = (content: Buffer, filename = 'image.png', format = 'png') =>
    postForm(t.app, '/api/convert', { token, fields: { format }, file: { content, filename } });

  it.each([
    ['MVG with url() and a shell pipe', () => hostile.mvg(`${baitUrl}/mvg`)],
    ['MVG with ephemeral:', () => hostile.mvgWith(`ephemeral:${join(scratch, 'keep-me')}`)],
    ['MVG with label:@file', () => hostile.mvgWith('label:@/etc/passwd')],
    ['MSL reading and writing files', () => hostile.msl('/etc/passwd', join(scratch, 'out.png'))],
  ])('refuses %s as no image, touching no file and no network', async (_, make) => {
    writeFileSync(join(scratch, 'keep-me'), 'still here');
    for (const name of ['image.png', 'image.mvg', 'image.msl', 'image.svg']) {
      const res = await convert(make(), name);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().code).toBe('unsupported_media_type');
    }
    expect(existsSync(join(scratch, 'keep-me'))).toBe(true);
    expect(existsSync(join(scratch, 'out.png'))).toBe(false);
    expect(existsSync('/tmp/refract-pwned')).toBe(false);
    expect(hits).toEqual([]);
  });

  it('refuses an SVG with "billion laughs" entities at once', async () => {
    const res = await convert(hostile.billionLaughs(), 'laughs.svg');
    expect(res.statusCode).toBe(422);
    // Refused by our check, before libxml2's own entity limits are ever needed.
    expect(res.json()).toMatchObject({
      code: 'invalid_image',
      error: expect.stringContaining('DOCTYPE'),
    });
  });

  it('draws nothing an SVG links to: neither a local file nor a URL', async () => {
    const red = join(scratch, 'red.png');
    await solid(20, 20).png().toFile(red);
    for (const href of [`file://${red}`, red, `${baitUrl}/svg-image.png`]) {
      const res = await convert(hostile.svgWithHref(href), 'linked.svg');
      if (res.statusCode === 200) {
        const { data } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
        const white = [...data].every((value) => value === 255);
        expect(white, `${href} was drawn`).toBe(true);
      } else {
        expect(res.json().code, href).toBe('invalid_image');
      }
    }
    expect(hits).toEqual([]);
  });

  it.each([
    ['an <?xml-stylesheet?> instruction', (href: string) => hostile.svgWithStylesheet(href)],
    [
      'url() with a CSS escape: u\\72l(',
      (href: string) => hostile.svgWithCss(`.x{fill:u\\72l(${href})}`),
    ],
    [
      'url() with a CSS escape and its space: \\75 rl(',
      (href: string) => hostile.svgWithCss(`.x{fill:\\75 rl(${href})}`),
    ],
    [
      'url() with a six-digit CSS escape: \\000075rl(',
      (href: string) => hostile.svgWithCss(`.x{fill:\\000075rl(${href})}`),
    ],
    [
      'url() with a CSS escape inside: url(\\66ile:',
      (href: string) => hostile.svgWithCss(`.x{fill:url(${href.replace('f', '\\66 ')})}`),
    ],
    [
      '@import with a CSS escape: @\\69mport',
      (href: string) => hostile.svgWithCss(`@\\69mport "${href}";`),
    ],
    [
      'url() with a comment in it: u/**/rl(',
      (href: string) => hostile.svgWithCss(`.x{fill:u/**/rl(${href})}`),
    ],
    [
      'url() with a character reference: u&#114;l(',
      (href: string) => hostile.svgWithCss(`.x{fill:u&#114;l(${href})}`),
    ],
    ['a url( left unclosed', (href: string) => hostile.svgWithCss(`.x{fill:url(${href}`)],
  ])('refuses an SVG naming a file through %s', async (_, make) => {
    const red = join(scratch, 'red.png');
    await solid(20, 20).png().toFile(red);
    for (const href of [`file://${red}`, `${baitUrl}/svg-css.png`]) {
      const res = await convert(make(href), 'styled.svg');
      expect(res.statusCode, href).toBe(422);
      expect(res.json().code, href).toBe('invalid_image');
    }
    expect(hits).toEqual([]);
  });

  it('still reads an SVG whose CSS has comments, escapes and links inside the file', async () => {
    const svg = hostile.svgWithCss('/* a gradient */ .x { fill: url(\\23 g) }');
    const withGradient = Buffer.from(
      svg
        .toString()
        .replace(
          '<style>',
          '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><style>',
        ),
    );
    const res = await convert(withGradient, 'fine.svg');
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each([
    ['100000×100000', 100_000, 100_000],
    ['10240×10240, just over the 100-megapixel limit', 10_240, 10_240],
  ])('refuses an SVG that draws %s pixels before drawing it', async (_, width, height) => {
    const res = await convert(hostile.svgOfSize(width, height), 'bomb.svg');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('image_too_large');
  });

  it('never copies a file named in a PNG "profile" chunk into the result (CVE-2022-44268)', async () => {
    const png = await hostile.pngAskingForFile('/etc/passwd');
    for (const [path, fields] of [
      ['/api/convert', { format: 'png' }],
      ['/api/convert', { format: 'bmp' }],
      ['/api/compress', { quality: '80', keepFormat: 'true' }],
      ['/api/rotate', { angle: '90' }],
    ] as const) {
      const res = await postForm(t.app, path, { token, fields, file: { content: png } });
      expect(res.statusCode, `${path} ${res.body.slice(0, 200)}`).toBe(200);
      expect(leaksPasswd(res.rawPayload), path).toBe(false);
      expect(res.rawPayload.includes('/etc/passwd'), path).toBe(false);
    }
  });

  it('re-encodes a PNG/HTML polyglot: the script is gone and the file is an attachment', async () => {
    const res = await convert(await hostile.pngHtmlPolyglot(), 'page.html');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.includes('<script')).toBe(false);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('attachment; filename="page.png"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never uses an uploaded file name as a path', async () => {
    const escape = join(scratch, 'escaped.png');
    // The result is named after the upload's last path part, cleaned, with the result's extension.
    const names: [string, string][] = [
      [`../../../../../..${escape}`, 'escaped.png'],
      ['..\\..\\..\\windows.png', 'windows.png'],
      ['a\u0000b.png', 'a-b.png'],
      [`${'x'.repeat(1000)}.png`, `${'x'.repeat(100)}.png`],
      // The quote ends the multipart header's name: an empty name, so the tool's fixed name.
      ['"; filename="evil.html', 'converted.png'],
    ];
    for (const [name, download] of names) {
      const res = await convert(await pngBytes(), name);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${download}"`);
    }
    expect(existsSync(escape)).toBe(false);
    expect(readdirSync(scratch).filter((f) => f.startsWith('escaped'))).toEqual([]);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(token) });
    expect(stats.statusCode).toBe(200);
  });
});
