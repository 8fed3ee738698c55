// Memory that comes back: the server's resident memory idle, after 50 mixed image
// jobs, at the peak of a 20-file batch (12 MP JPEG → WebP), and 60 s after the work, for the
// server as `npm start` runs it (jemalloc when Debian's libjemalloc2 is installed, else glibc
// with 2 arenas) beside glibc's malloc at its own default (8 arenas per core, as before).
// Each configuration runs ROUNDS times on a fresh server, interleaved; medians and spreads.
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CORES = availableParallelism();
const GOALS = { idle: 150, settled: 100, batch: 250 };
const CONFIGS = [
  { name: 'npm start (jemalloc preloaded)', env: {} },
  // jemalloc as npm start set it before: freed pages kept 10 s (its default), not 1 s.
  {
    name: 'jemalloc, freed pages kept 10 s (MALLOC_CONF=background_thread:true)',
    env: { MALLOC_CONF: 'background_thread:true' },
  },
  // A value of its own stops start.sh from preloading jemalloc: this is glibc as it was.
  {
    name: `glibc malloc, its default arenas (MALLOC_ARENA_MAX=${8 * CORES})`,
    env: { MALLOC_ARENA_MAX: String(8 * CORES) },
  },
];
const only = process.env.BENCH_CONFIGS?.split(',').map(Number);

const photos = [];
for (let i = 0; i < 20; i += 1) photos.push(await photo(i));
// The single requests on 3 MP photos: on a machine shared at load 20 and more, 12 MP requests
// passed the processing time limit (504) before the memory they hold could be measured.
const smaller = [];
for (let i = 0; i < 10; i += 1) smaller.push(await photo(i, 2000, 1500));
/** Five tools, ten photos each: what a day of image requests looks like. */
const JOBS = [
  ['/api/convert', { format: 'webp' }],
  ['/api/convert', { format: 'png' }],
  ['/api/compress', { quality: '70' }],
  ['/api/resize', { mode: 'percentage', percentage: '50' }],
  ['/api/rotate', { angle: '90' }],
].flatMap((job) => smaller.map((file) => [...job, file]));

const mb = (kb) => kb / 1024;

async function measure(env) {
  const refract = await lib.startRefractAsAdmin(lib.port(60), env);
  const { kb, sampled } = lib.memoryOf(refract.pid);
  const settle = async () => lib.median(await sampled(() => lib.sleep(1000)));
  try {
    await lib.sleep(5000);
    const idle = await settle();
    const jobs = await sampled(() =>
      lib.inFlight(JOBS, CORES, ([path, fields, file]) =>
        lib.postFile(`${refract.base}${path}`, refract.token, 'image', file, fields),
      ),
    );
    const afterJobs = await settle();
    writeFileSync(`/proc/${refract.pid}/clear_refs`, '5'); // resets VmHWM, the kernel's peak
    const before = kb('VmRSS');
    const batch = await sampled(() =>
      lib.batch(refract.base, refract.token, 'convert', { format: 'webp' }, photos),
    );
    const batchPeak = Math.max(...batch, kb('VmHWM'));
    const afterBatch = await settle();
    await lib.sleep(60_000);
    const later = await settle();
    return {
      idle: mb(idle),
      jobsPeak: mb(Math.max(...jobs)),
      afterJobs: mb(afterJobs),
      batchAdds: mb(batchPeak - before),
      afterBatch: mb(afterBatch),
      later: mb(later),
      settledAbove: mb(later - idle),
      load: lib.load(),
    };
  } finally {
    await refract.stop();
  }
}

const results = CONFIGS.map(() => []);

/** The table so far: written after every round, so a long run that is stopped still reports. */
function report(roundsDone) {
  const col = (runs, key) =>
    lib.spread(
      runs.map((r) => r[key]),
      0,
    );
  const rows = CONFIGS.flatMap((config, i) => {
    const runs = results[i];
    if (runs.length === 0) return [];
    const met = (key, goal) => `${runs.filter((r) => r[key] <= goal).length} of ${runs.length}`;
    return [
      `| ${config.name} | ${col(runs, 'idle')} | ${col(runs, 'jobsPeak')} | ${col(runs, 'afterJobs')} | ${col(runs, 'batchAdds')} | ${col(runs, 'afterBatch')} | ${col(runs, 'later')} | ${col(runs, 'settledAbove')} | ${runs.map((r) => r.load).join(', ')} | ${met('idle', GOALS.idle)} · ${met('settledAbove', GOALS.settled)} · ${met('batchAdds', GOALS.batch)} |`,
    ];
  });

  // BENCH_CONFIGS runs a part (two parts may run at once): each writes a file of its own.
  lib.writeResults(
    only ? `memory-${only.join('-')}` : 'memory',
    `# Memory: idle, after image work, during a batch, and 60 s later

${lib.measuredOn()}

The server's VmRSS (from /proc, sampled every 20 ms; a phase's value is the median of 1 s of samples, a peak the highest sample or the kernel's VmHWM reset before the batch). Each round is a fresh server started by \`scripts/start.sh\` (\`npm start\`) at the defaults, the allocator set as the row says: idle 5 s after start; then 50 image requests (10 each of convert to WebP, convert to PNG, compress, resize 50 %, rotate 90°) on 3 MP JPEG photos, ${CORES} in flight; then one batch of 20 × 12 MP JPEG → WebP with its zip downloaded; then 60 s of nothing. MB, median (lowest–highest) of ${roundsDone} rounds (of ${ROUNDS} planned); configurations interleaved.

| allocator | idle | peak during 50 jobs | after the jobs | the batch adds at its peak | after the batch | 60 s later | 60 s later, above idle | load average after each round | goals met (idle ≤ ${GOALS.idle} · 60 s later ≤ idle + ${GOALS.settled} · batch adds ≤ ${GOALS.batch}) |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`,
  );
}

for (let round = 0; round < ROUNDS; round += 1) {
  for (const [i, config] of CONFIGS.entries())
    if (!only || only.includes(i)) results[i].push(await measure(config.env));
  report(round + 1);
}
