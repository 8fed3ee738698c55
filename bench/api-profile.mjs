// Where an API request's CPU goes: the built server runs under `node --cpu-prof` while
// autocannon loads one endpoint, and the profile's self time is summed by package (or by our
// own source file), counting only the samples taken under load. One server per endpoint, so
// each profile holds one kind of request.
// Prints a table; bench/results/api-overhead.md quotes it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import * as lib from './lib.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 12);
// PROFILE_BY=function names each function (with its file) instead of its package.
const BY_FUNCTION = process.env.PROFILE_BY === 'function';
// PROFILE_ONLY=stats profiles one endpoint.
const ONLY = process.env.PROFILE_ONLY;

/** A profile node's owner: a package under node_modules, one of our files, or V8/Node itself. */
function owner(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const ours = url.match(/(apps\/server\/dist\/.*|packages\/contracts\/dist\/.*)/);
  if (ours) return ours[1];
  // node:internal/crypto/... stays apart from node:internal/streams/...: WebCrypto shows up here.
  if (url.startsWith('node:internal/')) return `node:internal/${url.split('/')[1]}`;
  if (url.startsWith('node:')) return url;
  return url;
}

/**
 * Self time per owner over the samples taken from `fromMicros` on: start-up (loading modules,
 * migrating) is left out. V8's profile clock and process.hrtime are both the monotonic clock.
 */
function selfTimeByOwner(profile, fromMicros) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromMicros) continue;
    const node = byId.get(profile.samples[i]);
    const { url, functionName } = node.callFrame;
    const key = BY_FUNCTION
      ? `${functionName || '(anonymous)'} ${owner(url, functionName)}:${node.callFrame.lineNumber + 1}`
      : owner(url, functionName);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return totals;
}

async function profileOf(name, path, signedIn) {
  const dir = mkdtempSync(join(tmpdir(), 'refract-prof-'));
  const refract = await lib.startRefract(lib.port(7), {}, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const headers = signedIn
    ? { authorization: `Bearer ${await lib.signUp(refract.base, 'prof@example.com')}` }
    : {};
  const loadStarted = Number(process.hrtime.bigint() / 1000n);
  const run = await autocannon({
    url: `${refract.base}${path}`,
    headers,
    connections: 50,
    duration: SECONDS,
  });
  await refract.stop();
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const totals = selfTimeByOwner(JSON.parse(readFileSync(join(dir, file), 'utf8')), loadStarted);
  rmSync(dir, { recursive: true, force: true });
  const busy = [...totals].filter(([k]) => !k.startsWith('(idle)'));
  const sum = busy.reduce((s, [, t]) => s + t, 0);
  const rows = busy
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, t]) => `| ${k} | ${((100 * t) / sum).toFixed(1)} % |`);
  return `### ${name}: ${path} (${run.requests.average.toFixed(0)} req/s under the profiler)\n\n| self time in | share of busy CPU |\n|---|---|\n${rows.join('\n')}\n`;
}

const endpoints = [
  ['health', '/api/health', false],
  ['plans', '/api/subscriptions/plans', false],
  ['stats', '/api/user/stats', true],
];
const sections = [];
for (const [name, path, signedIn] of endpoints)
  if (!ONLY || ONLY === name) sections.push(await profileOf(name, path, signedIn));
console.log(`${lib.measuredOn()}\n\n${sections.join('\n')}`);
