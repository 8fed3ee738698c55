// API throughput with autocannon at 50 connections: a bare node:http server answering the
// same JSON as the plans endpoint, GET /api/subscriptions/plans (public, from the database)
// and GET /api/user/stats as a signed-in user (token check, plan, period and usage queries).
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import * as lib from './lib.mjs';

const CONNECTIONS = 50;
// Short rounds, many of them: on a shared machine the load of other work changes by the
// minute, and each round's ratio compares endpoints that ran seconds apart.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

const refract = await lib.startRefract(lib.port(5));
const token = await lib.signUp(refract.base, 'api-bench@example.com');
const plans = await (await fetch(`${refract.base}/api/subscriptions/plans`)).text();

const bare = await lib.startBareServer(
  lib.port(6),
  `(req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(process.env.BODY);
  }`,
  { BODY: plans },
);

const targets = {
  bare: { label: 'bare node:http, the same JSON', url: bare.url },
  // No database and no sign-in: what the framework and our per-request plumbing cost.
  health: {
    label: 'GET /api/health (no database)',
    url: `${refract.base}/api/health`,
    goal: 0.7,
  },
  plans: {
    label: 'GET /api/subscriptions/plans',
    url: `${refract.base}/api/subscriptions/plans`,
    goal: 0.6,
  },
  stats: {
    label: 'GET /api/user/stats, Bearer token of a Basic user',
    url: `${refract.base}/api/user/stats`,
    headers: { authorization: `Bearer ${token}` },
    goal: 0.3,
  },
};
const cannon = (t, duration) =>
  autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration });

for (const t of Object.values(targets)) await cannon(t, 2); // warm
const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
// Alternate rounds so every endpoint sees the same machine noise.
for (let round = 0; round < ROUNDS; round += 1)
  for (const [name, t] of Object.entries(targets)) runs[name].push(await cannon(t, SECONDS));
await refract.stop();
bare.stop();

const rps = (name) => runs[name].reduce((sum, r) => sum + r.requests.average, 0) / ROUNDS;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The median over rounds of each round's ratio to the bare server's run in that round. */
const ratioToBare = (name) =>
  median(runs[name].map((r, i) => r.requests.average / runs.bare[i].requests.average));
const p99 = (name) => Math.max(...runs[name].map((r) => r.latency.p99));
const failures = (name) => runs[name].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
const row = (name) => {
  const { label, goal } = targets[name];
  const ratio = ratioToBare(name);
  const verdict = goal ? `≥ ${goal}×: ${lib.verdict(ratio >= goal && !failures(name))}` : '';
  return `| ${label} | ${rps(name).toFixed(0)} | ${p99(name).toFixed(0)} | ${failures(name)} | ${ratio.toFixed(2)}× | ${verdict} |`;
};
lib.writeResults(
  'api-overhead',
  `# API throughput: plans and user stats against bare node:http

${lib.measuredOn()}

autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per endpoint (after 2 s of warm-up); req/s is the mean of the rounds, p99 the worst; the ratio is the median of each round's ratio to bare node:http in the same round. SQLite database.

| endpoint | req/s | p99 ms | non-2xx or errors | ratio to bare | goal (issue 24) |
|---|---|---|---|---|---|
${Object.keys(targets).map(row).join('\n')}

The load generator runs on the same 2 cores as the server it measures, so it takes a share of the CPU in every row alike.
The /api/health row is the floor for any Refract endpoint: Fastify with its hooks, security headers and response schema, with no database work.
Load average of the machine when the run ended (other builds and tests share it): ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}.
`,
);
