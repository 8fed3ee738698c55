// Batches, two measurements in one run:
// 1. 20 photos of 12 MP, JPEG → WebP, as ONE batch through the API (upload, queue, runner, the
//    zip downloaded) on a server started as users start it, at its defaults (nothing tuned),
//    against in-process sharp with as many in flight as there are cores.
// 2. The server's resident memory during a batch of 20 × 25 MB files (WAV → MP3, the zip
//    downloaded), against the same process idle: uploads, results and the zip all stream.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { photo, wav } from './fixtures.mjs';
import * as lib from './lib.mjs';

const PHOTOS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CORES = availableParallelism();
const AUDIO_FILES = 20;
const RSS_GOAL_MB = 100;

const loadAtStart = lib.load();

const paths = [];
for (let i = 0; i < PHOTOS; i += 1) paths.push(await photo(i));
const buffers = paths.map((p) => readFileSync(p));
const audio = await wav(142); // 44.1 kHz stereo 16-bit: 25 MB

// The defaults: IMAGE_WORKERS is the cores, and so is everything else as a user finds it.
const refract = await lib.startRefractAsAdmin(lib.port(87));
const api = () =>
  lib.seconds(() => lib.batch(refract.base, refract.token, 'convert', { format: 'webp' }, paths));
const inProcess = () =>
  lib.inFlight(buffers, CORES, (jpeg) => sharp(jpeg).autoOrient().webp().toBuffer());
// Warm both paths, then alternate rounds so each sees the same machine noise; each round's
// ratio compares runs seconds apart, and the median of them is the result.
await lib.batch(refract.base, refract.token, 'convert', { format: 'webp' }, paths.slice(0, CORES));
await inProcess();
const times = { api: [], sharp: [] };
const loads = [];
for (let round = 0; round < ROUNDS; round += 1) {
  times.api.push(await api());
  times.sharp.push(await inProcess());
  loads.push(lib.load());
}
const ratios = times.api.map((t, i) => times.sharp[i] / t);
const ratio = lib.median(ratios);

// Memory: VmRSS sampled every 20 ms, and the kernel's peak (VmHWM) reset before the batch.
const { kb, sampled } = lib.memoryOf(refract.pid);
const mb = (k) => k / 1024;
await lib.sleep(2000);
const idle = lib.percentile(await sampled(() => lib.sleep(1000)), 0.5);
let hwmReset = true;
try {
  writeFileSync(`/proc/${refract.pid}/clear_refs`, '5');
} catch {
  hwmReset = false;
}
let zipBytes = 0;
const audioSeconds = await lib.seconds(async () => {
  const samples = await sampled(async () => {
    zipBytes = await lib.batch(
      refract.base,
      refract.token,
      'audio/convertaudio',
      { format: 'mp3' },
      Array(AUDIO_FILES).fill(audio),
    );
  });
  sampled.max = Math.max(...samples);
});
const hwm = kb('VmHWM');
await refract.stop();
const peak = Math.max(sampled.max, hwmReset ? hwm : 0);
const delta = mb(peak - idle);

const megabytes = buffers.reduce((sum, b) => sum + b.length, 0) / PHOTOS / 1e6;
lib.writeResults(
  'batch',
  `# Batches: 20 × 12 MP JPEG → WebP in one batch, and memory during 20 × 25 MB

${lib.measuredOn()} Load average (1 min) at the start of the run: ${loadAtStart}, after each round: ${loads.join(', ')}, at its end: ${lib.load()} (other builds and tests share the machine).

## Throughput

${PHOTOS} generated photos of 4000×3000 (${megabytes.toFixed(1)} MB JPEG on average). The API path is one \`POST /api/batch/convert\` with all ${PHOTOS} files (format webp), followed until done, then the zip downloaded to the end; the server is started by \`scripts/start.sh\` (\`npm start\`) at its defaults: IMAGE_WORKERS = ${CORES} (the cores), log level info. In-process sharp converts the same buffers with ${CORES} in flight at sharp's own defaults. ${ROUNDS} alternating rounds: median (lowest–highest).

| path | seconds | images/s |
|---|---|---|
| sharp in-process, ${CORES} in flight | ${lib.spread(times.sharp)} | ${(PHOTOS / lib.median(times.sharp)).toFixed(2)} |
| Refract batch API at the defaults: upload, queue, runners, zip streamed | ${lib.spread(times.api)} | ${(PHOTOS / lib.median(times.api)).toFixed(2)} |
| ratio, each round's sharp ÷ API | ${lib.spread(ratios)} | |

## Memory

One \`POST /api/batch/audio/convertaudio\` of ${AUDIO_FILES} × ${(statSync(audio).size / 1e6).toFixed(1)} MB WAV (format mp3), then the zip (${(zipBytes / 1e6).toFixed(1)} MB) downloaded; ${audioSeconds.toFixed(1)} s in all. ffmpeg runs as its own process and is not counted.

| server process | MB |
|---|---|
| idle (median of 1 s) | ${mb(idle).toFixed(1)} |
| peak during the batch's upload, jobs and zip | ${mb(peak).toFixed(1)} |
| **above idle** | **${delta.toFixed(1)}** |

| goal | result | |
|---|---|---|
| batch API at the defaults ≥ 0.85× in-process sharp with ${CORES} in flight (median of ${ROUNDS}) | ${lib.spread(ratios)}× | ${lib.verdict(ratio >= 0.85)} (${ratios.filter((r) => r >= 0.85).length} of ${ROUNDS} rounds) |
| RSS during 20 × 25 MB < ${RSS_GOAL_MB} MB above idle | ${delta.toFixed(1)} MB | ${lib.verdict(delta < RSS_GOAL_MB)} |
`,
);
