// HTML to PNG, warm: render times through the API (auth, metering, a sealed context made fresh
// for each user's render) against a bare playwright-core script that reuses one page as is.
import { chromium } from 'playwright-core';
import * as lib from './lib.mjs';

const RUNS = 60;
const HTML = `<div style="font:24px sans-serif;padding:32px;background:linear-gradient(#e5dbff,#d0ebff)">
  <h1>Invoice 2041</h1><table>${'<tr><td>Item</td><td>$4.99</td></tr>'.repeat(20)}</table></div>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
// The same image both ways: 1280 px wide (the API's default), as tall as the content.
const page = await browser.newPage({ viewport: { width: 1280, height: 100 } });
const bare = async () => {
  await page.setContent(HTML);
  await page.screenshot({ fullPage: true });
};

// An admin is unlimited, so the quota does not stop the run; the work per request is the same.
const refract = await lib.startRefractAsAdmin(lib.port(4));
const viaApi = async () => {
  const res = await fetch(`${refract.base}/api/html-to-image`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${refract.token}` },
    body: JSON.stringify({ html: HTML }),
  });
  if (!res.ok) throw new Error(`html-to-image answered ${res.status}`);
  await res.arrayBuffer();
};

for (let i = 0; i < 3; i += 1) await Promise.all([bare(), viaApi()]); // warm both
const times = { bare: [], api: [] };
// One of each in turn, so both see the same machine noise. The pause lets Refract finish
// resetting its page (done after it answers) before the bare script's next render starts.
for (let i = 0; i < RUNS; i += 1) {
  times.bare.push(1000 * (await lib.seconds(bare)));
  times.api.push(1000 * (await lib.seconds(viaApi)));
  await lib.sleep(100);
}
await refract.stop();
await browser.close();

const p = (name, q) => lib.percentile(times[name], q);
const ratio50 = p('api', 0.5) / p('bare', 0.5);
const ratio95 = p('api', 0.95) / p('bare', 0.95);
lib.writeResults(
  'html-render',
  `# HTML to PNG: the API against a bare playwright script

${lib.measuredOn()}

${RUNS} warm renders each, one at a time, taking turns. The same HTML (a 20-row table), 1280 px wide, full page, PNG.

| path | p50 ms | p95 ms |
|---|---|---|
| bare playwright-core, one page reused as is | ${p('bare', 0.5).toFixed(0)} | ${p('bare', 0.95).toFixed(0)} |
| Refract API (HTTP, auth, metering, sealed context, page reset between users) | ${p('api', 0.5).toFixed(0)} | ${p('api', 0.95).toFixed(0)} |
| ratio | ${ratio50.toFixed(2)}× | ${ratio95.toFixed(2)}× |

| goal | result | |
|---|---|---|
| at most 1.5× the bare script (p50 and p95) | ${ratio50.toFixed(2)}× and ${ratio95.toFixed(2)}× | ${lib.verdict(ratio50 <= 1.5 && ratio95 <= 1.5)} |
| API p95 under 300 ms | ${p('api', 0.95).toFixed(0)} ms | ${lib.verdict(p('api', 0.95) < 300)} |

The bare script keeps its page's window and globals from one render to the next; Refract gives every render a fresh document and window, so nothing one user's HTML leaves behind reaches the next (docs/decisions/004). That reset runs after the answer is sent, so it is outside these latencies but still costs CPU under load.
`,
);
