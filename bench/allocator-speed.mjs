// Whether jemalloc returning freed pages after 1 s (npm start's setting) slows image work
// against its own 10 s default: 12 photos of 12 MP converted to WebP, 2 in flight, through the
// API of a server started as users start it, the two settings alternating, n rounds.
// Prints the median (range) of each and the ratio; quoted in bench/results/memory.md.
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONFIGS = {
  'npm start (freed pages back after 1 s)': {},
  'jemalloc default (10 s)': { MALLOC_CONF: 'background_thread:true' },
};
const photos = [];
for (let i = 0; i < 12; i += 1) photos.push(await photo(i));

async function convertAll(env) {
  const refract = await lib.startRefractAsAdmin(lib.port(11), env);
  try {
    const queue = [...photos];
    const started = performance.now();
    const worker = async () => {
      for (let file = queue.shift(); file; file = queue.shift())
        await lib.postFile(`${refract.base}/api/convert`, refract.token, 'image', file, {
          format: 'webp',
        });
    };
    await Promise.all([worker(), worker()]);
    return (performance.now() - started) / 1000;
  } finally {
    await refract.stop();
  }
}

const seconds = Object.fromEntries(Object.keys(CONFIGS).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1)
  for (const [name, env] of Object.entries(CONFIGS)) seconds[name].push(await convertAll(env));
const [fast, slow] = Object.keys(CONFIGS);
const ratios = seconds[fast].map((s, i) => seconds[slow][i] / s);
for (const [name, xs] of Object.entries(seconds))
  console.log(`| ${name} | ${lib.spread(xs, 1)} s |`);
console.log(`| ratio, 10 s ÷ 1 s, each round | ${lib.spread(ratios, 2)}× |`);
console.log(`load average after: ${lib.load()}`);
