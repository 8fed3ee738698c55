// Batches (issue #19), two measurements in one run:
// 1. 40 photos of 12 MP, JPEG → WebP, as ONE batch through the API (upload, queue, runner, the
//    zip downloaded), against in-process sharp with the same concurrency (WORKERS = the cores).
// 2. The server's resident memory during a batch of 20 × 25 MB files (WAV → MP3, the zip
//    downloaded), against the same process idle: uploads, results and the zip all stream.
import { openAsBlob, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { basename } from 'node:path';
import sharp from 'sharp';
import { photo, wav } from './fixtures.mjs';
import * as lib from './lib.mjs';

const PHOTOS = 40;
const ROUNDS = 2;
const WORKERS = availableParallelism();
const AUDIO_FILES = 20;
const RSS_GOAL_MB = 100;

/** The 1-minute load average: the machine is shared, and a busy one slows both sides. */
const load = () => loadavg()[0].toFixed(1);
const loadAtStart = load();

const paths = [];
for (let i = 0; i < PHOTOS; i += 1) paths.push(await photo(i));
const buffers = paths.map((p) => readFileSync(p));
const audio = await wav(142); // 44.1 kHz stereo 16-bit: 25 MB

/** One batch: every file in one multipart request, followed to its end, the zip read to the end. */
async function batch(base, token, path, fields, files) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [i, file] of files.entries())
    form.append('file', await openAsBlob(file), `${i}-${basename(file)}`);
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${base}/api/batch/${path}?files=${files.length}`, {
    method: 'POST',
    body: form,
    headers: auth,
  });
  if (created.status !== 202) throw new Error(`batch: ${created.status} ${await created.text()}`);
  const { batchId } = await created.json();
  for (;;) {
    const state = await (await fetch(`${base}/api/batches/${batchId}`, { headers: auth })).json();
    if (state.status === 'done') {
      if (state.counts.done !== files.length)
        throw new Error(JSON.stringify(state.files.map((f) => f.error)));
      break;
    }
    await lib.sleep(50);
  }
  const zip = await fetch(`${base}/api/batches/${batchId}/zip`, { headers: auth });
  let bytes = 0;
  for await (const chunk of zip.body) bytes += chunk.length;
  return bytes;
}

const refract = await lib.startRefractAsAdmin(lib.port(87), { WORKERS: String(WORKERS) });
const api = () =>
  lib.seconds(() => batch(refract.base, refract.token, 'convert', { format: 'webp' }, paths));
const inProcess = () =>
  lib.inFlight(buffers, WORKERS, (jpeg) => sharp(jpeg).autoOrient().webp().toBuffer());
// Warm both paths, then alternate rounds so each sees the same machine noise; keep the best.
await batch(refract.base, refract.token, 'convert', { format: 'webp' }, paths.slice(0, WORKERS));
await inProcess();
const times = { api: [], sharp: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  times.api.push(await api());
  times.sharp.push(await inProcess());
}
const ratio = lib.min(times.sharp) / lib.min(times.api);

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
    zipBytes = await batch(
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
  `# Batches: 40 × 12 MP JPEG → WebP in one batch, and memory during 20 × 25 MB

${lib.measuredOn()} Load average (1 min) at the start of the run: ${loadAtStart}, at its end: ${load()} (other builds and tests share the machine).

## Throughput

${PHOTOS} generated photos of 4000×3000 (${megabytes.toFixed(1)} MB JPEG on average). The API path is one \`POST /api/batch/convert\` with all ${PHOTOS} files (format webp), followed until done, then the zip downloaded to the end; the server runs WORKERS=${WORKERS} (the cores). In-process sharp converts the same buffers with ${WORKERS} in flight. Best of ${ROUNDS} alternating rounds.

| path | seconds | images/s |
|---|---|---|
| sharp in-process, ${WORKERS} in flight | ${lib.min(times.sharp).toFixed(2)} | ${(PHOTOS / lib.min(times.sharp)).toFixed(2)} |
| Refract batch API: upload, queue, ${WORKERS} runners, zip streamed | ${lib.min(times.api).toFixed(2)} | ${(PHOTOS / lib.min(times.api)).toFixed(2)} |

## Memory

One \`POST /api/batch/audio/convertaudio\` of ${AUDIO_FILES} × ${(statSync(audio).size / 1e6).toFixed(1)} MB WAV (format mp3), then the zip (${(zipBytes / 1e6).toFixed(1)} MB) downloaded; ${audioSeconds.toFixed(1)} s in all. ffmpeg runs as its own process and is not counted.

| server process | MB |
|---|---|
| idle (median of 1 s) | ${mb(idle).toFixed(1)} |
| peak during the batch's upload, jobs and zip | ${mb(peak).toFixed(1)} |
| **above idle** | **${delta.toFixed(1)}** |

| goal (issue 19) | result | |
|---|---|---|
| batch API ≥ 0.85× in-process sharp, same concurrency | ${ratio.toFixed(2)}× | ${lib.verdict(ratio >= 0.85)} |
| RSS during 20 × 25 MB < ${RSS_GOAL_MB} MB above idle | ${delta.toFixed(1)} MB | ${lib.verdict(delta < RSS_GOAL_MB)} |
`,
);
