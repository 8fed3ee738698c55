// What holds /convert's first paint on loopback, against a minimal static page: the page as
// Refract serves it (`npm start`), then the same HTML from bare node:http with Refract's
// headers or without them, and with one part taken out at a time (its inline styles, its
// scripts, both), each in a fresh Chromium context (empty cache), interleaved, FCP from the
// page's own paint entry. Writes results/first-paint-anatomy.md.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

const refract = await lib.startRefract(lib.port(8));
const answer = await fetch(`${refract.base}/convert`);
const served = await answer.text();
// Refract's own headers on a page, less those that describe its (compressed) body.
const pageHeaders = Object.fromEntries(
  [...answer.headers].filter(
    ([name]) =>
      ![
        'content-encoding',
        'content-length',
        'date',
        'connection',
        'keep-alive',
        'vary',
        'transfer-encoding',
      ].includes(name),
  ),
);
const withoutStyles = (html) => html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
const withoutScripts = (html) =>
  html
    .replace(/<script type="module"[^>]*><\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<script type="application\/json" id="page-chunks">[\s\S]*?<\/script>/, '');
const STATIC_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tools</title>
<style>body{font-family:sans-serif;margin:0 auto;max-width:60rem}h1{font-size:2rem}</style></head>
<body><h1>Convert, compress and edit images, audio and video</h1>
<p>${'Upload a file, pick a format, download the result. '.repeat(8)}</p></body></html>`;
const COOP = { 'cross-origin-opener-policy': 'same-origin' };
/** Each page served by the bare server: its HTML and the headers it is sent with. */
const variants = {
  'Refract /convert (npm start)': undefined,
  'the same HTML, bare node:http': { html: served },
  "the same HTML with Refract's headers": { html: served, headers: pageHeaders },
  'the same HTML, Cross-Origin-Opener-Policy only': { html: served, headers: COOP },
  'without its inline styles': { html: withoutStyles(served) },
  'without its scripts': { html: withoutScripts(served) },
  'without both': { html: withoutScripts(withoutStyles(served)) },
  'minimal static page': { html: STATIC_PAGE },
  'minimal static page, Cross-Origin-Opener-Policy': { html: STATIC_PAGE, headers: COOP },
};
const names = Object.keys(variants);

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
const port = lib.port(9);
const bare = http
  .createServer((req, res) => {
    const path = decodeURIComponent(req.url.split('?')[0]);
    const variant = path.startsWith('/v/') ? variants[names[Number(path.slice(3))]] : undefined;
    if (variant) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...variant.headers });
      return res.end(variant.html);
    }
    const file = join(dist, path);
    if (!file.startsWith(dist) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  })
  .listen(port, '127.0.0.1');

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

async function firstPaint(url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 840 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  const fcp = await page.evaluate(
    () =>
      new Promise((resolve) =>
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint');
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true }),
      ),
  );
  await context.close();
  return fcp;
}

const times = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1)
  for (const [index, name] of names.entries()) {
    const url = variants[name] ? `http://127.0.0.1:${port}/v/${index}` : `${refract.base}/convert`;
    times[name].push(await firstPaint(url));
  }
await browser.close();
bare.close();
await refract.stop();

const median = (xs) => lib.percentile(xs, 0.5);
const staticMs = median(times['minimal static page']);
const kb = (html) => (Buffer.byteLength(html) / 1024).toFixed(0);
const rows = names.map((name) => {
  const xs = times[name];
  const html = variants[name]?.html ?? served;
  const spread = `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  return `| ${name} | ${kb(html)} | ${Math.round(median(xs))} (${spread}) | ${(median(xs) / staticMs).toFixed(2)}× |`;
});
lib.writeResults(
  'first-paint-anatomy',
  `# What holds /convert's first paint on loopback

${lib.measuredOn()}

Debian's Chromium, 412×840, a fresh context per load (empty cache), ${ROUNDS} loads of each, interleaved; FCP from the page's paint entry, median (fastest–slowest), and its ratio to the minimal static page's median. The first row is Refract as \`npm start\` serves /convert; the others serve that HTML (uncompressed) from bare node:http with the built assets, with no headers but its type unless a row names them (Refract's page headers, or only its \`Cross-Origin-Opener-Policy: same-origin\`), or with one part taken out: "inline styles" are the \`<style>\` blocks the prerender writes (the app's and the page's stylesheets, and Mantine's variables and classes); "scripts" are the module script, its preloads and the page-chunks list.

| page | HTML KB | FCP ms | ÷ static |
|---|---|---|---|
${rows.join('\n')}
`,
);
