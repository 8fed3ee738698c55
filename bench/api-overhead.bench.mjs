// API throughput with autocannon at 50 connections: a bare node:http server answering the
// same JSON as the plans endpoint, GET /api/subscriptions/plans (public, from the database)
// and GET /api/user/stats as a signed-in user (token check, plan, period and usage queries).
// The server runs as users start it (`npm start`, log level info by default), and
// the log level being a setting, each Refract row is also measured on a second server with
// LOG_LEVEL=silent, in the same rounds.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import * as lib from './lib.mjs';

const CONNECTIONS = 50;
// Short rounds, many of them: on a shared machine the load of other work changes by the
// minute, and each round's ratio compares endpoints that ran seconds apart.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

const refract = await lib.startRefract(lib.port(5));
const silent = await lib.startRefract(lib.port(7), { LOG_LEVEL: 'silent' });
const token = await lib.signUp(refract.base, 'api-bench@example.com');
const silentToken = await lib.signUp(silent.base, 'api-bench@example.com');
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
  healthSilent: { label: '/api/health, LOG_LEVEL=silent', url: `${silent.base}/api/health` },
  plansSilent: {
    label: 'plans, LOG_LEVEL=silent',
    url: `${silent.base}/api/subscriptions/plans`,
  },
  statsSilent: {
    label: 'stats, LOG_LEVEL=silent',
    url: `${silent.base}/api/user/stats`,
    headers: { authorization: `Bearer ${silentToken}` },
  },
};
const loads = [];
const cannon = (t, duration) =>
  autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration });

for (const t of Object.values(targets)) await cannon(t, 2); // warm
const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
// Alternate rounds so every endpoint sees the same machine noise.
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, t] of Object.entries(targets)) runs[name].push(await cannon(t, SECONDS));
  loads.push(lib.load());
}
await refract.stop();
await silent.stop();
bare.stop();

const rps = (name) => runs[name].reduce((sum, r) => sum + r.requests.average, 0) / ROUNDS;
/** Each round's ratio of `name` to `to` (the bare server's run, or another row's) in that round. */
const ratios = (name, to = 'bare') =>
  runs[name].map((r, i) => r.requests.average / runs[to][i].requests.average);
const ratioToBare = (name) => lib.median(ratios(name));
const p99 = (name) => Math.max(...runs[name].map((r) => r.latency.p99));
const failures = (name) => runs[name].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
const row = (name) => {
  const { label, goal } = targets[name];
  const ratio = ratioToBare(name);
  const verdict = goal ? `≥ ${goal}×: ${lib.verdict(ratio >= goal && !failures(name))}` : '';
  const met = goal ? ` (${ratios(name).filter((r) => r >= goal).length} of ${ROUNDS} rounds)` : '';
  return `| ${label} | ${rps(name).toFixed(0)} | ${p99(name).toFixed(0)} | ${failures(name)} | ${lib.spread(ratios(name))}× | ${verdict}${met} |`;
};
const logRow = (name, label) => `| ${label} | ${lib.spread(ratios(name, `${name}Silent`))}× |`;
lib.writeResults(
  'api-overhead',
  `# API throughput: plans and user stats against bare node:http

${lib.measuredOn()}

autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per endpoint (after 2 s of warm-up); req/s is the mean of the rounds, p99 the worst; the ratio is the median (lowest–highest) of each round's ratio to bare node:http in the same round. SQLite database. Both Refract servers are started by \`scripts/start.sh\` (\`npm start\`) at the defaults, logging to a file; the second with LOG_LEVEL=silent. Load average after each round: ${loads.join(', ')}.

| endpoint | req/s | p99 ms | non-2xx or errors | ratio to bare | goal |
|---|---|---|---|---|---|
${Object.keys(targets).map(row).join('\n')}

What the default log level costs: each round's req/s at LOG_LEVEL=info (the default: one line per request, none for health checks) over the same endpoint at LOG_LEVEL=silent, median (lowest–highest) of ${ROUNDS} rounds.

| endpoint | info ÷ silent |
|---|---|
${logRow('health', '/api/health (not logged at info)')}
${logRow('plans', 'GET /api/subscriptions/plans')}
${logRow('stats', 'GET /api/user/stats')}

The load generator runs on the same 2 cores as the server it measures, so it takes a share of the CPU in every row alike.
The /api/health row is the floor for any Refract endpoint: Fastify with its hooks, security headers and response schema, with no database work.
Load average of the machine when the run ended (other builds and tests share it): ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}.
`,
);
