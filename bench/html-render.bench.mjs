// HTML to PNG: warm render times through the API (auth, metering, sealed context per render)
// against a bare playwright-core script that reuses one page, on the same HTML in one run.
import { chromium } from 'playwright-core';
import { startRefractAsAdmin, writeResults } from './lib.mjs';

const RUNS = 30;
const HTML = `<div style="font:24px sans-serif;padding:32px;background:linear-gradient(#e5dbff,#d0ebff)">
  <h1>Invoice 2041</h1><table>${'<tr><td>Item</td><td>$4.99</td></tr>'.repeat(20)}</table></div>`;

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function timed(task, runs = RUNS) {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times;
}

async function throughput(task, concurrency = 2, total = 20) {
  let left = total;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await task();
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const pages = [
  await browser.newPage({ viewport: { width: 1280, height: 100 } }),
  await browser.newPage({ viewport: { width: 1280, height: 100 } }),
];
let turn = 0;
const bare = async () => {
  const page = pages[turn++ % 2];
  await page.setContent(HTML);
  await page.screenshot({ fullPage: true });
};

// An admin is unlimited, so the quota does not stop the run; the work per request is the same.
const refract = await startRefractAsAdmin(3110);
const { base, token } = refract;
const viaApi = async () => {
  const res = await fetch(`${base}/api/html-to-image`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ html: HTML }),
  });
  if (!res.ok) throw new Error(`html-to-image answered ${res.status}`);
  await res.arrayBuffer();
};

await bare();
await viaApi(); // warm both
const bareTimes = await timed(bare);
const apiTimes = await timed(viaApi);
const bareRate = await throughput(bare);
const apiRate = await throughput(viaApi);
await refract.stop();
await browser.close();

const row = (name, times, rate) =>
  `| ${name} | ${percentile(times, 0.5).toFixed(0)} | ${percentile(times, 0.95).toFixed(0)} | ${rate.toFixed(1)} |`;
const ratio = percentile(apiTimes, 0.5) / percentile(bareTimes, 0.5);
writeResults(
  'html-render',
  `# HTML to PNG: API against a bare playwright script

${new Date().toISOString().slice(0, 10)}, ${RUNS} warm renders each, then 20 renders with 2 in flight. Same HTML (a 20-row table), 1280 px wide, full page.

| path | p50 ms | p95 ms | renders/s (2 concurrent) |
|---|---|---|---|
${row('bare playwright, reused page', bareTimes, bareRate)}
${row('Refract API (auth, metering, sealed pooled context)', apiTimes, apiRate)}

p50 ratio API/bare: ${ratio.toFixed(2)} (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'not met'}); API p95 ${percentile(apiTimes, 0.95).toFixed(0)} ms (goal < 300 ms: ${percentile(apiTimes, 0.95) < 300 ? 'met' : 'not met'}).
Refract resets the page to a new about:blank window after each render (isolation between users); the bare script reuses its page as is.
`,
);
