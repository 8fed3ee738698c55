// First load in Debian's Chromium, cold cache, as a visitor feels it: first and largest
// contentful paint of the home page and a tool page, how long /convert takes to answer a
// file chosen the moment its file input exists (the dropzone then names the file), and the
// layout shift of every prerendered page in English and Arabic. On loopback
// and with Chrome's "slow 4G" profile and a 4× slower CPU (CDP throttling), with the compressed
// bytes of JS and CSS each page fetched. The baseline is a minimal server-rendered page (HTML
// with its text, one small stylesheet) served by bare node:http: what a page with no
// client-side app at all costs on the same machine.
/* global window, document */
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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
// A 12 MP phone photo (a few MB), the kind of file a visitor brings.
const PHOTO = await photo(0);

const refract = await lib.startRefract(lib.port(8));
// Another build of the web app to compare with in the same run (for example the one before a
// change, copied aside): FIRST_LOAD_COMPARE_DIST=/path/to/dist, served by a second Refract.
// FIRST_LOAD_COMPARE_LABEL names it in the results.
const compareDist = process.env.FIRST_LOAD_COMPARE_DIST;
const compareLabel = process.env.FIRST_LOAD_COMPARE_LABEL ?? compareDist;
const compare = compareDist
  ? await lib.startRefract(lib.port(10), { WEB_DIST_DIR: compareDist })
  : undefined;
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

/** A fresh context (empty cache) and page, throttled or not, counting JS and CSS bytes as sent. */
async function coldPage(throttled) {
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
  return { context, page, bytes };
}

/** One cold load of `url` left alone until the network is idle: paints in ms, bytes as sent. */
async function paints(url, throttled) {
  const { context, page, bytes } = await coldPage(throttled);
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
  const result = await page.evaluate(() => ({ fcp: window.__fcp, lcp: window.__lcp }));
  await context.close();
  return { ...result, ...bytes };
}

/**
 * One cold load of `url` where the visitor gives a file as soon as the page can take one: ms
 * from navigation start until the dropzone names the file (checked every frame). Apart from
 * the paint loads, since the preview it shows would become their largest paint.
 */
async function fileAnswered(url, throttled) {
  const { context, page } = await coldPage(throttled);
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  // A prerendered page has its file input before React runs; it takes a file once React has
  // taken the input over (hydrated: React's props are on the element), as a visitor finds.
  await page.waitForFunction(
    () => {
      const input = document.querySelector('input[type=file]');
      return input && Object.keys(input).some((key) => key.startsWith('__reactProps'));
    },
    null,
    { polling: 'raf', timeout: 120_000 },
  );
  await page.locator('input[type=file]').setInputFiles(PHOTO, { timeout: 120_000 });
  const ms = await page.waitForFunction(
    (name) =>
      document.querySelector('.mantine-Dropzone-root')?.textContent?.includes(name) &&
      performance.now(),
    basename(PHOTO),
    { polling: 'raf', timeout: 120_000 },
  );
  const answered = await ms.jsonValue();
  await context.close();
  return { file: answered };
}

const pages = {
  home: { label: 'Refract home page', url: `${refract.base}/` },
  tool: { label: 'Refract tool page (/convert)', url: `${refract.base}/convert`, file: true },
  ...(compare && {
    compareHome: { label: `home page, ${compareLabel}`, url: `${compare.base}/` },
    compareTool: { label: `/convert, ${compareLabel}`, url: `${compare.base}/convert`, file: true },
  }),
  baseline: {
    label: 'minimal server-rendered page (bare node:http)',
    url: `http://127.0.0.1:${baselinePort}/`,
  },
};
/**
 * Cumulative layout shift of one cold load of `path` at `width` by a visitor whose browser
 * speaks `language`: every shift not caused by input, summed, until the network is idle and
 * half a second after.
 */
async function layoutShift(path, language, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: language });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${refract.base}${path}`, { waitUntil: 'networkidle', timeout: 120_000 });
  await lib.sleep(500);
  const cls = await page.evaluate(() => window.__cls);
  await context.close();
  return cls;
}

/** Every page the build prerendered (dist/pages/en), by address. */
const prerenderedPaths = readdirSync(join(lib.root, 'apps', 'web', 'dist', 'pages', 'en'))
  .filter((file) => file.endsWith('.html'))
  .map((file) => (file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`))
  .sort();
const CLS_ROUNDS = Number(process.env.BENCH_CLS_ROUNDS ?? 3);
const shifts = [];
for (const width of [412, 1280])
  for (const language of ['en', 'ar'])
    for (const path of prerenderedPaths) {
      const runs = [];
      for (let i = 0; i < CLS_ROUNDS; i += 1) runs.push(await layoutShift(path, language, width));
      shifts.push({ path, language, width, runs });
    }

const results = {};
for (const throttled of [false, true])
  for (const [name, p] of Object.entries(pages)) {
    const runs = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      const run = await paints(p.url, throttled);
      if (p.file) Object.assign(run, await fileAnswered(p.url, throttled));
      runs.push(run);
    }
    results[`${name}:${throttled}`] = runs;
  }
await browser.close();
baseline.close();
await refract.stop();
await compare?.stop();

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const kb = (n) => (n / 1024).toFixed(1);
const runsOf = (name, throttled) => results[`${name}:${throttled}`];
const of = (name, throttled, key) => runsOf(name, throttled).map((r) => r[key]);
/** Median, then the spread of all runs: "1234 (1100–1400)". */
const spread = (xs) => {
  const s = sorted(xs);
  return `${median(xs).toFixed(0)} (${s[0].toFixed(0)}–${s.at(-1).toFixed(0)})`;
};
const network = (throttled) => (throttled ? 'slow 4G + 4× CPU' : 'loopback');
const row = (name, throttled) => {
  const file = pages[name].file ? spread(of(name, throttled, 'file')) : '–';
  const m = (key) => kb(median(of(name, throttled, key)));
  return `| ${pages[name].label} | ${network(throttled)} | ${spread(of(name, throttled, 'fcp'))} | ${spread(of(name, throttled, 'lcp'))} | ${file} | ${m('js')} | ${m('css')} |`;
};
const goal = (label, ms, limit) =>
  `| ${label} ≤ ${(limit / 1000).toFixed(1)} s | ${ms.toFixed(0)} ms | ${lib.verdict(ms <= limit)}${ms > limit ? ` (by ${(ms - limit).toFixed(0)} ms)` : ''} |`;
const slow = (name, key) => median(of(name, true, key));
const homeBytes = median(runsOf('home', false).map((r) => r.js + r.css));
const goalRows = ['home', 'tool'].flatMap((name) => [
  goal(`${pages[name].label}: FCP`, slow(name, 'fcp'), 1800),
  goal(`${pages[name].label}: LCP`, slow(name, 'lcp'), 2500),
]);
goalRows.push(goal(`${pages.tool.label}: file answered`, slow('tool', 'file'), 3500));
const CLS_GOAL = 0.05;
const worstShift = Math.max(...shifts.map((s) => median(s.runs)));
goalRows.push(
  `| every prerendered page: layout shift ≤ ${CLS_GOAL} | ${worstShift.toFixed(3)} (worst median) | ${lib.verdict(worstShift <= CLS_GOAL)} |`,
);
const shiftRows = prerenderedPaths.map((path) => {
  const cells = [412, 1280].flatMap((width) =>
    ['en', 'ar'].map((language) => {
      const { runs } = shifts.find(
        (s) => s.path === path && s.language === language && s.width === width,
      );
      const s = sorted(runs);
      return `${median(runs).toFixed(3)} (${s[0].toFixed(3)}–${s.at(-1).toFixed(3)})`;
    }),
  );
  return `| ${path} | ${cells.join(' | ')} |`;
});
lib.writeResults(
  'first-load',
  `# First load in Chromium: paints, a file answered, and bytes; cold cache

${lib.measuredOn()}

Debian's Chromium (playwright-core), a 412×840 viewport, a fresh browser context per load (empty cache), ${ROUNDS} loads of each: the median, then the fastest and slowest in brackets, in ms from navigation start. Throttled rows use CDP: Chrome's "Slow 4G" (562.5 ms latency, 1.4 Mbit/s down) and a ${CPU_SLOWDOWN}× CPU slowdown. Bytes are as sent (compressed), JS and CSS only, everything the page fetched until the network was idle. "File answered" is a separate load of /convert in which a 12 MP JPEG is given to the dropzone's file input as soon as React has taken that input over (a prerendered page has it before), timed until the dropzone names the file (the visitor sees it taken).

| page | network | FCP ms | LCP ms | file answered ms | JS KB | CSS KB |
|---|---|---|---|---|---|---|
${[false, true].flatMap((th) => Object.keys(pages).map((n) => row(n, th))).join('\n')}

| goal, slow 4G + 4× CPU unless said | measured (median) | verdict |
|---|---|---|
| home page JS+CSS ≤ 190 KB as sent | ${kb(homeBytes)} KB | ${lib.verdict(homeBytes <= 190 * 1024)} |
${goalRows.join('\n')}

## Layout shift of every prerendered page

Cumulative layout shift (Chromium's layout-shift entries without recent input, summed until the network is idle and 500 ms after), a cold load on loopback in a fresh context whose browser speaks the language (a first visit), ${CLS_ROUNDS} loads each: the median, then the least and most. /plans is drawn by the server with its plans (decision 045).

| page | 412 px, en | 412 px, ar | 1280 px, en | 1280 px, ar |
|---|---|---|---|---|
${shiftRows.join('\n')}

The browser, the server and other people's builds share the machine's 2 cores. Bytes are what Chromium received: brotli, as Chromium asks for it.
`,
);
