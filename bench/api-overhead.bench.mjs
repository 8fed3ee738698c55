// Fastify app (routing, helmet headers, request ids, zod serialisation) against a bare
// node:http JSON endpoint, in the same run, alternating rounds to even out machine noise.
import { spawn } from 'node:child_process';
import { load, startRefract, writeResults } from './lib.mjs';

const ROUNDS = 3;
const barePort = 3108;
// Its own process, like Refract, so neither shares an event loop with the load generator.
const bare = spawn(process.execPath, [
  '-e',
  `require('node:http').createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', version: '0.0.0' }));
  }).listen(${barePort}, '127.0.0.1')`,
]);
const refract = await startRefract(3107);

const totals = { bare: { rps: 0, p99: 0 }, refract: { rps: 0, p99: 0 } };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, url] of [
    ['bare', `http://127.0.0.1:${barePort}/`],
    ['refract', 'http://127.0.0.1:3107/api/health'],
  ]) {
    const r = await load(url);
    totals[name].rps += r.rps / ROUNDS;
    totals[name].p99 = Math.max(totals[name].p99, r.p99);
  }
}
await refract.stop();
bare.kill();

const ratio = totals.refract.rps / totals.bare.rps;
writeResults(
  'api-overhead',
  `# API overhead: GET /api/health against bare node:http

${new Date().toISOString().slice(0, 10)}, ${ROUNDS} alternating rounds of 3 s, 16 keep-alive clients (Node fetch, same machine).

| endpoint | req/s | p99 ms | ratio to bare |
|---|---|---|---|
| bare node:http JSON | ${totals.bare.rps.toFixed(0)} | ${totals.bare.p99.toFixed(1)} | 1.00 |
| Refract /api/health | ${totals.refract.rps.toFixed(0)} | ${totals.refract.p99.toFixed(1)} | ${ratio.toFixed(2)} |

The load generator shares the 2 cores with both servers, so the ratio, not the absolute rate, is the result.
`,
);
