// API throughput with autocannon at 50 connections: a bare node:http server answering the
// same JSON as each endpoint, GET /api/subscriptions/plans (public, from the database)
// and GET /api/user/stats as a signed-in user (token check, plan, period and usage queries).
// The server runs as users start it (`npm start`, log level info by default), and
// the log level being a setting, each Refract row is also measured on a second server with
// LOG_LEVEL=silent, in the same rounds. Health and stats are measured a third time on a server
// with METRICS_TOKEN set (GET /metrics served) while a scraper here fetches /metrics every 5 s,
// as Prometheus would. Only that server observes each request (app.ts adds the onResponse hook
// when METRICS_TOKEN or METRICS_PORT is set), so the row is the whole cost of metrics: the
// observation, serving and scraping; the observation is also timed apart, in a loop.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import * as lib from './lib.mjs';

const CONNECTIONS = 50;
// Short rounds, many of them: on a shared machine the load of other work changes by the
// minute, and each round's ratio compares endpoints that ran seconds apart.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SCRAPE_EVERY_MS = 5000;
const METRICS_GOAL = 0.95;
/** 32 characters (the server asks for 16 at least), new for every run. */
const METRICS_TOKEN = randomBytes(24).toString('base64url');

const refract = await lib.startRefract(lib.port(5));
const silent = await lib.startRefract(lib.port(7), { LOG_LEVEL: 'silent' });
const token = await lib.signUp(refract.base, 'api-bench@example.com');
const silentToken = await lib.signUp(silent.base, 'api-bench@example.com');
const metered = await lib.startRefract(lib.port(8), { METRICS_TOKEN });
const meteredToken = await lib.signUp(metered.base, 'api-bench@example.com');
// Another built checkout (an earlier commit, `git worktree add` and `npm run build` there) at
// its defaults, to compare with in the same rounds: API_COMPARE_DIR=/path, API_COMPARE_LABEL.
const compareDir = process.env.API_COMPARE_DIR;
const compareLabel = process.env.API_COMPARE_LABEL ?? compareDir;
const compare = compareDir ? await lib.startRefract(lib.port(10), {}, [], compareDir) : undefined;
const compareToken = compare && (await lib.signUp(compare.base, 'api-bench@example.com'));
// The bare servers answer each endpoint's own JSON, as Refract sends it, so every ratio
// compares the same bytes: /health, /plans and /stats by path.
const bodies = {
  health: await (await fetch(`${refract.base}/api/health`)).text(),
  plans: await (await fetch(`${refract.base}/api/subscriptions/plans`)).text(),
  stats: await (
    await fetch(`${refract.base}/api/user/stats`, { headers: { authorization: `Bearer ${token}` } })
  ).text(),
};
const bare = await lib.startBareServer(
  lib.port(6),
  `((bodies) => (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bodies[req.url.slice(1)] ?? '{}');
  })(JSON.parse(process.env.BODIES))`,
  { BODIES: JSON.stringify(bodies) },
);
// Fastify alone, with health's JSON and no logger: what the framework costs before anything
// of ours runs (the floor under every Refract row).
const fastify = await lib.startBareFastify(lib.port(9), bodies.health);

const targets = {
  bareHealth: { label: "bare node:http, health's JSON", url: `${bare.url}health` },
  barePlans: { label: "bare node:http, the plans' JSON", url: `${bare.url}plans` },
  bareStats: { label: "bare node:http, the stats' JSON", url: `${bare.url}stats` },
  fastify: {
    label: "bare Fastify (no logger), health's JSON",
    url: fastify.url,
    bare: 'bareHealth',
  },
  // No database and no sign-in: what the framework and our per-request plumbing cost.
  health: {
    label: 'GET /api/health (no database)',
    url: `${refract.base}/api/health`,
    bare: 'bareHealth',
    goal: 0.8,
  },
  plans: {
    label: 'GET /api/subscriptions/plans',
    url: `${refract.base}/api/subscriptions/plans`,
    bare: 'barePlans',
    goal: 0.6,
  },
  stats: {
    label: 'GET /api/user/stats, Bearer token of a Basic user',
    url: `${refract.base}/api/user/stats`,
    headers: { authorization: `Bearer ${token}` },
    bare: 'bareStats',
    goal: 0.3,
  },
  ...(compare && {
    healthCompare: {
      label: `/api/health, ${compareLabel}`,
      url: `${compare.base}/api/health`,
      bare: 'bareHealth',
    },
    plansCompare: {
      label: `plans, ${compareLabel}`,
      url: `${compare.base}/api/subscriptions/plans`,
      bare: 'barePlans',
    },
    statsCompare: {
      label: `stats, ${compareLabel}`,
      url: `${compare.base}/api/user/stats`,
      headers: { authorization: `Bearer ${compareToken}` },
      bare: 'bareStats',
    },
  }),
  healthSilent: {
    label: '/api/health, LOG_LEVEL=silent',
    url: `${silent.base}/api/health`,
    bare: 'bareHealth',
  },
  plansSilent: {
    label: 'plans, LOG_LEVEL=silent',
    url: `${silent.base}/api/subscriptions/plans`,
    bare: 'barePlans',
  },
  statsSilent: {
    label: 'stats, LOG_LEVEL=silent',
    url: `${silent.base}/api/user/stats`,
    headers: { authorization: `Bearer ${silentToken}` },
    bare: 'bareStats',
  },
  healthMetrics: {
    label: 'health, metrics on',
    url: `${metered.base}/api/health`,
    bare: 'bareHealth',
  },
  statsMetrics: {
    label: 'stats, metrics on',
    url: `${metered.base}/api/user/stats`,
    headers: { authorization: `Bearer ${meteredToken}` },
    bare: 'bareStats',
  },
};
const loads = [];
const cannon = (t, duration) =>
  autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration });

/**
 * Prometheus's part: GET /metrics on the metered server every SCRAPE_EVERY_MS for the whole
 * measured run, whichever endpoint autocannon is on; each scrape's time, size, and the row
 * being measured when it started.
 */
let measuring;
const scrapes = [];
const scrapeFailures = [];
async function scrape() {
  const during = measuring;
  const started = performance.now();
  try {
    const res = await fetch(`${metered.base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const body = await res.text();
    if (!res.ok || !body.includes('refract_http_request_duration_seconds_bucket'))
      throw new Error(`answered ${res.status}`);
    scrapes.push({ ms: performance.now() - started, bytes: body.length, during });
  } catch (error) {
    scrapeFailures.push(String(error));
  }
}

for (const t of Object.values(targets)) await cannon(t, 2); // warm
const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
const scraper = setInterval(scrape, SCRAPE_EVERY_MS);
// Alternate rounds so every endpoint sees the same machine noise.
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, t] of Object.entries(targets)) {
    measuring = name;
    runs[name].push(await cannon(t, SECONDS));
  }
  loads.push(lib.load());
}
clearInterval(scraper);
measuring = undefined;
await refract.stop();
await silent.stop();
await metered.stop();
await compare?.stop();
bare.stop();
fastify.stop();

/**
 * What the onResponse hook adds to every request when metrics are on: one Histogram.observe with
 * the same three labels and buckets as metrics/metrics.ts, a fresh labels object per call as
 * the hook builds it. prom-client as the server loads it; run here after the servers stopped.
 */
function observeNs() {
  const { Histogram, Registry } = createRequire(join(lib.root, 'apps/server/package.json'))(
    'prom-client',
  );
  const histogram = new Histogram({
    name: 'bench_request_duration_seconds',
    help: 'bench',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [new Registry()],
  });
  const CALLS = 1e6;
  const loop = (n) => {
    for (let i = 0; i < n; i += 1)
      histogram.observe({ method: 'GET', route: '/api/health', status: 200 }, (i % 64) / 1000);
  };
  loop(1e5); // warm
  return Array.from({ length: 5 }, () => {
    const started = process.hrtime.bigint();
    loop(CALLS);
    return Number(process.hrtime.bigint() - started) / CALLS;
  });
}
const observe = observeNs();

const rps = (name) => runs[name].reduce((sum, r) => sum + r.requests.average, 0) / ROUNDS;
/**
 * Each round's ratio of `name` to `to` in that round: by default the bare server answering the
 * same JSON (a bare row is its own 1.00), or another row.
 */
const ratios = (name, to = targets[name].bare ?? name) =>
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
const metricsRow = (name, label) => {
  const each = ratios(`${name}Metrics`, name);
  const ratio = lib.median(each);
  const ok = ratio >= METRICS_GOAL && !failures(`${name}Metrics`);
  const met = each.filter((r) => r >= METRICS_GOAL).length;
  return `| ${label} | ${lib.spread(each)}× | ≥ ${METRICS_GOAL} (≤ 5 % apart): ${lib.verdict(ok)} (${met} of ${ROUNDS} rounds) |`;
};
const scrapeMs = scrapes.map((s) => s.ms);
const scrapedDuring = (name) => scrapes.filter((s) => s.during === name).length;
const healthNs = 1e9 / rps('health');
const observeMedian = lib.median(observe);
lib.writeResults(
  'api-overhead',
  `# API throughput: plans and user stats against bare node:http

${lib.measuredOn()}

autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per endpoint (after 2 s of warm-up); req/s is the mean of the rounds, p99 the worst; the ratio is the median (lowest–highest) of each round's ratio to bare node:http answering the same JSON (the endpoint's own answer, by path) in the same round. SQLite database. The three Refract servers are started by \`scripts/start.sh\` (\`npm start\`) at the defaults, logging to a file; the second with LOG_LEVEL=silent, the third with METRICS_TOKEN (32 random characters) and scraped every ${SCRAPE_EVERY_MS / 1000} s. Load average after each round: ${loads.join(', ')}.

| endpoint | req/s | p99 ms | non-2xx or errors | ratio to bare | goal |
|---|---|---|---|---|---|
${Object.keys(targets).map(row).join('\n')}

What the default log level costs: each round's req/s at LOG_LEVEL=info (the default: one line per request, none for health checks) over the same endpoint at LOG_LEVEL=silent, median (lowest–highest) of ${ROUNDS} rounds.

| endpoint | info ÷ silent |
|---|---|
${logRow('health', '/api/health (not logged at info)')}
${logRow('plans', 'GET /api/subscriptions/plans')}
${logRow('stats', 'GET /api/user/stats')}

What metrics cost: each round's req/s on the server with METRICS_TOKEN set (GET /metrics served, scraped every ${SCRAPE_EVERY_MS / 1000} s by the bench as Prometheus would) over the same endpoint on the default server, median (lowest–highest) of ${ROUNDS} rounds.

| endpoint | metrics on ÷ default | goal |
|---|---|---|
${metricsRow('health', '/api/health')}
${metricsRow('stats', 'GET /api/user/stats')}
${
  compare
    ? `
What changed since ${compareLabel}: each round's req/s on this build over the same endpoint on that build, both at the defaults, median (lowest–highest) of ${ROUNDS} rounds.

| endpoint | this build ÷ ${compareLabel} |
|---|---|
${['health', 'plans', 'stats'].map((name) => `| ${targets[name].label} | ${lib.spread(ratios(name, `${name}Compare`))}× |`).join('\n')}
`
    : ''
}
- **Metrics are off at the defaults.** Only with METRICS_TOKEN (or METRICS_PORT) does the onResponse hook (\`apps/server/src/app.ts\`) put every request in the \`refract_http_request_duration_seconds\` histogram (method, route, status), and GET /metrics exist. So "metrics on ÷ default" is the whole cost of metrics: observing every request, and serving and scraping /metrics every 5 s.
- **The scrapes:** ${scrapes.length} during the measured rounds (${scrapeFailures.length} failed${scrapeFailures.length ? `: ${[...new Set(scrapeFailures)].join('; ')}` : ''}), ${scrapedDuring('healthMetrics') + scrapedDuring('statsMetrics')} of them while autocannon was on a metrics-on row (${scrapedDuring('healthMetrics')} health, ${scrapedDuring('statsMetrics')} stats); time to the whole answer ${scrapes.length ? `${lib.spread(scrapeMs, 1)} ms` : 'none'}, ${scrapes.length ? `${lib.median(scrapes.map((s) => s.bytes))} bytes` : ''}, timed in the bench's process, which is also running autocannon.
- **The observation itself:** prom-client's \`Histogram.observe\` with the same three labels and buckets, a fresh labels object per call as the hook builds it, 1e6 calls in a loop, five times, in the bench's process after the servers stopped: ${lib.spread(observe, 0)} ns a call. A request of /api/health took ${healthNs.toFixed(0)} ns of the default server's wall time (1e9 ÷ ${rps('health').toFixed(0)} req/s, the row above; all 50 connections together), so the observation is about ${((observeMedian / healthNs) * 100).toFixed(1)} % of it; a loop keeps its code and data hot, so in a real request it costs somewhat more.

The load generator runs on the same 2 cores as the server it measures, so it takes a share of the CPU in every row alike.
The /api/health row is the floor for any Refract endpoint: Fastify with its hooks, security headers and response schema, with no database work.
Load average of the machine when the run ended (other builds and tests share it): ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}.
`,
);
