// First load in Debian's Chromium, cold cache: first and largest contentful paint of the home
// page and a tool page, on loopback and with Chrome's "slow 4G" profile and a 4× slower CPU
// (CDP throttling), and the compressed bytes of JS and CSS each page fetched. The baseline is
// a minimal server-rendered page (HTML with its text, one small stylesheet) served by bare
// node:http: what a page with no client-side app at all costs on the same machine.
// ConvertX, the comparison the issue names, is not installed here (no network), so it is not
// measured; this baseline stands in for "a server-rendered page" and is labelled as such.
/* global window */
import http from 'node:http';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Chrome DevTools' "Slow 4G" preset (Chrome 121+).
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.4 * 1024 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const refract = await lib.startRefract(lib.port(8));
const baselinePort = lib.port(9);
const baseline = http
  .createServer((req, res) => {
    if (req.url === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      return res.end(
        'body{font-family:sans-serif;margin:0 auto;max-width:60rem}h1{font-size:2rem}',
      );
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tools</title>
<link rel="stylesheet" href="/style.css"></head><body><h1>Convert, compress and edit images, audio and video</h1>
<p>${'Upload a file, pick a format, download the result. '.repeat(8)}</p></body></html>`);
  })
  .listen(baselinePort, '127.0.0.1');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });

/** One cold load (fresh context: empty cache) of `url`; paints in ms, bytes as sent. */
async function load(url, throttled) {
  const context = await browser.newContext({ viewport: { width: 412, height: 840 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  const bytes = { js: 0, css: 0 };
  const types = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type }) => types.set(requestId, type));
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const type = types.get(requestId);
    if (type === 'Script') bytes.js += encodedDataLength;
    if (type === 'Stylesheet') bytes.css += encodedDataLength;
  });
  await page.addInitScript(() => {
    window.__lcp = 0;
    window.__fcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'first-contentful-paint') window.__fcp = entry.startTime;
    }).observe({ type: 'paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  await page.waitForFunction(() => window.__fcp > 0, null, { timeout: 60_000 });
  await lib.sleep(500);
  const paints = await page.evaluate(() => ({ fcp: window.__fcp, lcp: window.__lcp }));
  await context.close();
  return { ...paints, ...bytes };
}

const pages = {
  home: { label: 'Refract home page', url: `${refract.base}/` },
  tool: { label: 'Refract tool page (/convert)', url: `${refract.base}/convert` },
  baseline: {
    label: 'minimal server-rendered page (bare node:http)',
    url: `http://127.0.0.1:${baselinePort}/`,
  },
};
const results = {};
for (const throttled of [false, true])
  for (const [name, p] of Object.entries(pages)) {
    const runs = [];
    for (let i = 0; i < ROUNDS; i += 1) runs.push(await load(p.url, throttled));
    results[`${name}:${throttled}`] = runs;
  }
await browser.close();
baseline.close();
await refract.stop();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => (n / 1024).toFixed(1);
const row = (name, throttled) => {
  const runs = results[`${name}:${throttled}`];
  const m = (k) => median(runs.map((r) => r[k]));
  return `| ${pages[name].label} | ${throttled ? 'slow 4G + 4× CPU' : 'loopback'} | ${m('fcp').toFixed(0)} | ${m('lcp').toFixed(0)} | ${kb(m('js'))} | ${kb(m('css'))} |`;
};
const fcp = (name, throttled) => median(results[`${name}:${throttled}`].map((r) => r.fcp));
const homeBytes = median(results['home:false'].map((r) => r.js + r.css));
const loopbackRatio = fcp('home', false) / fcp('baseline', false);
lib.writeResults(
  'first-load',
  `# First load in Chromium: paints and bytes, cold cache

${lib.measuredOn()}

Debian's Chromium (playwright-core), a 412×840 viewport, a fresh browser context per load (empty cache), median of ${ROUNDS} loads. Throttled rows use CDP: Chrome's "Slow 4G" (562.5 ms latency, 1.4 Mbit/s down) and a ${CPU_SLOWDOWN}× CPU slowdown. Bytes are as sent (compressed), JS and CSS only, everything the page fetched until the network was idle.

| page | network | FCP ms | LCP ms | JS KB | CSS KB |
|---|---|---|---|---|---|
${[false, true].flatMap((th) => Object.keys(pages).map((n) => row(n, th))).join('\n')}

| goal (issue 24) | measured | verdict |
|---|---|---|
| home page JS+CSS ≤ 150 KB compressed | ${kb(homeBytes)} KB | ${lib.verdict(homeBytes <= 150 * 1024)} |
| home FCP, slow 4G + 4× CPU ≤ 1.8 s | ${fcp('home', true).toFixed(0)} ms | ${lib.verdict(fcp('home', true) <= 1800)} |
| home FCP on loopback ≤ 1.5× a server-rendered page | ${loopbackRatio.toFixed(2)}× | ${lib.verdict(loopbackRatio <= 1.5)} (against the minimal page above: ConvertX is not available here) |

The browser, the server and other people's builds share the machine's 2 cores. Bytes are what Chromium received: brotli, as Chromium asks for it.
`,
);
