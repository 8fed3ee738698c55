import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../../test/accounts.js';
import { hasChromium, ourChromiumRssKb } from '../../test/chromium-processes.js';
import { registerSubscriber } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe.skipIf(!hasChromium())('POST /api/html-to-image (sealed Chromium)', () => {
  let t: TestApp;
  let token: string;
  let bait: Server;
  let baitUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
    // A local server standing in for anything the page might try to reach.
    bait = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('SECRET-TOKEN-42');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    bait.close();
  });

  const render = (payload: object, as = token) =>
    t.app.inject({ method: 'POST', url: '/api/html-to-image', payload, headers: bearer(as) });

  it('renders HTML with its CSS, and the pixels are right', async () => {
    const html =
      '<html><body style="margin:0;background:#ff0000">' +
      '<div style="width:50px;height:40px;background:rgb(0,255,0)"></div></body></html>';
    const res = await render({ html, width: 200, height: 100, fullPage: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="html-image.png"');
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 100]);
    const pixel = (x: number, y: number) => [
      ...data.subarray(
        (y * info.width + x) * info.channels,
        (y * info.width + x) * info.channels + 3,
      ),
    ];
    expect(pixel(10, 10)).toEqual([0, 255, 0]);
    expect(pixel(150, 80)).toEqual([255, 0, 0]);
  });

  it('never lets one render see what another left behind', async () => {
    const plant =
      '<script>window.leak = "secret"; document.cookie = "a=1"; try { localStorage.setItem("k", "v"); } catch (e) {}' +
      ' document.documentElement.dataset.left = "yes";</script><p>first</p>';
    for (let i = 0; i < 3; i += 1)
      expect(
        (await render({ html: plant, fullPage: false, width: 200, height: 100 })).statusCode,
      ).toBe(200);
    const probe =
      '<body style="margin:0"><script>let seen = false; try { seen = Boolean(window.leak || document.cookie || ' +
      'localStorage.getItem("k") || document.documentElement.dataset.left); } catch (e) {}' +
      ' document.body.style.background = seen ? "rgb(255,0,0)" : "rgb(0,255,0)";</script></body>';
    for (let i = 0; i < 3; i += 1) {
      const res = await render({ html: probe, fullPage: false, width: 200, height: 100 });
      const { data } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
      expect([...data.subarray(0, 3)]).toEqual([0, 255, 0]);
    }
  });

  it('lets nothing out: no request reaches a local server, whatever the HTML tries', async () => {
    const attempts = [
      `<img src="${baitUrl}/img">`,
      `<iframe src="${baitUrl}/iframe"></iframe>`,
      `<link rel="stylesheet" href="${baitUrl}/link.css">`,
      `<link rel="prefetch" href="${baitUrl}/prefetch"><link rel="preconnect" href="${baitUrl}">`,
      `<style>@import url("${baitUrl}/import.css"); body { background: url("${baitUrl}/bg.png"); }</style>`,
      `<script>fetch("${baitUrl}/fetch").catch(() => {}); const x = new XMLHttpRequest(); x.open("GET", "${baitUrl}/xhr"); x.send();</script>`,
      `<script>try { new WebSocket("${baitUrl.replace('http', 'ws')}/ws"); } catch (e) {}</script>`,
      `<script>window.open("${baitUrl}/popup");</script>`,
      `<meta http-equiv="refresh" content="0; url=${baitUrl}/refresh">`,
      '<iframe src="file:///etc/passwd" width="400" height="200"></iframe>',
      `<script>location.href = "${baitUrl}/navigate";</script>`,
    ];
    for (const html of attempts) {
      const res = await render({
        html: `<html><body>${html}<p>hello</p></body></html>`,
        width: 400,
        fullPage: false,
      });
      expect(res.statusCode, html).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(hits).toEqual([]);
  });

  it('stops an endless script with 504 render_timeout, and the next render works', async () => {
    const stuck = await render({ html: '<script>while (true) {}</script>' });
    expect(stuck.statusCode).toBe(504);
    expect(stuck.json().code).toBe('render_timeout');
    const next = await render({ html: '<p>still alive</p>', width: 300, fullPage: false });
    expect(next.statusCode).toBe(200);
  });

  it('refuses empty HTML, oversized HTML and out-of-range sizes, charging nothing', async () => {
    const basic = await registerUser(t.app);
    expect((await render({ html: '   \n ' }, basic.token)).json().code).toBe('empty_html');
    const huge = await render({ html: 'x'.repeat(1024 * 1024 + 1) }, basic.token);
    expect(huge.statusCode).toBe(413);
    expect((await render({ html: '<p>x</p>', width: 50 }, basic.token)).statusCode).toBe(400);
    expect((await render({ html: '<p>x</p>', height: 20_000 }, basic.token)).statusCode).toBe(400);
    const stats = (
      await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
    ).json();
    expect(stats.imagesProcessed).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/html-to-image',
      payload: { html: '<p>x</p>' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps Chromium memory bounded over 30 renders in a row', async () => {
    const page = (i: number) => ({
      html: `<h1>Render ${i}</h1><div style="height:2000px;background:linear-gradient(red,blue)"></div>`,
    });
    // Warm up to the steady state (every pooled context alive), then look for growth.
    for (let i = 0; i < 5; i += 1) await render(page(i));
    const before = ourChromiumRssKb();
    for (let i = 0; i < 30; i += 1) {
      const res = await render({
        html: `<h1>Render ${i}</h1><div style="height:2000px;background:linear-gradient(red,blue)"></div>`,
      });
      expect(res.statusCode).toBe(200);
    }
    const growthMb = (ourChromiumRssKb() - before) / 1024;
    expect(growthMb).toBeLessThan(150);
  }, 120_000);
});

describe('POST /api/html-to-image without Chromium', () => {
  it('answers 503 engine_unavailable and charges nothing', async () => {
    const t = await createTestApp('sqlite', {
      engines: { chromium: { available: false, version: null } },
    });
    try {
      const { token } = await registerUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/html-to-image',
        payload: { html: '<p>x</p>' },
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('engine_unavailable');
      const stats = (
        await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })
      ).json();
      expect(stats.imagesProcessed).toBe(0);
    } finally {
      await t.close();
    }
  });
});
