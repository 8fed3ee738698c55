// Audio and video jobs through the API (upload to disk, probe, quota, job queue, heartbeats,
// result streamed back) against bare ffmpeg run with the very arguments Refract gives it.
import { spawn } from 'node:child_process';
import { availableParallelism, setPriority, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIO_OUTPUTS, VIDEO_OUTPUTS } from '../apps/server/dist/media/av/media-formats.js';
import { probeMedia } from '../apps/server/dist/media/av/probe.js';
import { loadConfig } from '../apps/server/dist/config.js';
import { clip, wav } from './fixtures.mjs';
import * as lib from './lib.mjs';
import { optionRuns } from './media-options.mjs';

const ROUNDS = 5;
const QUEUED = 4;
// The default on this machine (half the cores, at least 1), set explicitly so the table is sure.
const WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));
const work = mkdtempSync(join(tmpdir(), 'refract-bench-media-'));

/**
 * What Refract runs, argument for argument: run-ffmpeg.ts's prefix (with -progress, as every
 * job reports progress), transcode.ts's input and stream selection, the target's encoder
 * settings from media-formats.ts, at the same nice 10.
 */
function refractArgs({ input, demuxer, target }, output) {
  const streams =
    target.kind === 'audio'
      ? ['-map', '0:a:0', '-vn']
      : ['-map', '0:v:0', '-map', '0:a:0?', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'];
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-progress', 'pipe:1', '-nostats'],
    ...['-protocol_whitelist', 'file', '-f', demuxer, '-i', input],
    ...streams,
    ...target.codecArgs,
    ...['-f', target.muxer, output],
  ];
}

function bareFfmpeg(c, output = join(work, `out.${c.target.extension}`)) {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', refractArgs(c, output), { stdio: ['ignore', 'pipe', 'pipe'] });
    setPriority(child.pid, 10);
    child.stdout.resume();
    let log = '';
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(log))));
  });
}

const cases = [
  {
    name: 'WAV 5 min → MP3',
    input: await wav(300),
    demuxer: 'wav', // what ffprobe names it, as probe.ts picks it
    target: AUDIO_OUTPUTS.mp3,
    route: '/api/audio/convertaudio',
    field: 'audio',
    goal: 1.15,
  },
  {
    name: 'MP4 1080p 10 s → MP4',
    input: await clip({ size: '1920x1080', seconds: 10, bitrate: '8M' }),
    demuxer: 'mov',
    target: VIDEO_OUTPUTS.mp4,
    route: '/api/video/convert-video',
    field: 'video',
    goal: 1.05,
  },
];
const viaApi = (c) =>
  lib.postFile(`${refract.base}${c.route}`, refract.token, c.field, c.input, {
    format: c.target.extension,
  });

// An admin is unlimited, so the quota does not stop the run; the work per request is the same.
// At the defaults: WORKERS (audio/video at once) is half the cores unless set.
const refract = await lib.startRefractAsAdmin(lib.port(3));
await viaApi(cases[0]); // warm: first upload, probe, encoder list
/**
 * What no server can avoid: the upload's bytes crossing loopback to a bare node:http process
 * that only writes them to disk, and one ffprobe of the file (the probe's only other work, the
 * playlist scan, runs while the upload streams). Bare ffmpeg plus these is the floor.
 */
const sink = await lib.startBareServer(
  lib.port(4),
  `(req, res) => {
    req.pipe(require('node:fs').createWriteStream(process.env.TO)).on('finish', () => res.end('ok'));
  }`,
  { TO: join(work, 'upload') },
);
const limits = loadConfig({ ...process.env, DATA_DIR: work }).media;
const uploadToSink = (c) => lib.postFile(sink.url, '', c.field, c.input);
const ffprobeAlone = (c) => probeMedia('ffprobe', c.input, limits, { containsIndirection: false });

// BENCH_MEDIA=options makes only the option runs (media-options.md), not the table below;
// BENCH_MEDIA=convert the table alone (the option runs take minutes of two-pass encodes).
const onlyOptions = process.env.BENCH_MEDIA === 'options';
if (process.env.BENCH_MEDIA !== 'convert') {
  const options = await optionRuns({ refract, work, limits });
  lib.writeResults(
    'media-options',
    `# Audio and video options: the API against bare ffmpeg with the same arguments

${lib.measuredOn()}

A 60 s 1080p clip (30 fps, 8 Mbps H.264 with grain, AAC), one request at a time, ${options.rounds} alternating rounds: median and spread.
The API's time is the whole request: the 60 MB upload, probe, the key-frame check, quota, queue, ffmpeg, the result streamed back.
Bare ffmpeg gets the plan Refract makes (the server's own planVideo), argument for argument, at nice 10; the target size runs both passes on both sides.

| run | bare ffmpeg | through the API | ratio | result | goal |
|---|---|---|---|---|---|
${options.rows.join('\n')}

${options.commands.join('\n\n')}
`,
  );
}
if (onlyOptions) {
  await refract.stop();
  sink.stop();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

const rows = [];
const floors = [];
for (const c of cases) {
  const times = { bare: [], api: [] };
  // Alternate so both see the same machine noise; each round's ratio, then their median.
  for (let i = 0; i < ROUNDS; i += 1) {
    times.bare.push(await lib.seconds(() => bareFfmpeg(c)));
    times.api.push(await lib.seconds(() => viaApi(c)));
  }
  const upload = [];
  const probe = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    upload.push(await lib.seconds(() => uploadToSink(c)));
    probe.push(await lib.seconds(() => ffprobeAlone(c)));
  }
  const roundFloors = times.bare.map((bare, i) => (bare + upload[i] + probe[i]) / bare);
  floors.push(
    `| ${c.name} | ${lib.spread(upload, 3)} s | ${lib.spread(probe, 3)} s | ${lib.spread(roundFloors, 3)}× |`,
  );
  const ratios = times.api.map((api, i) => api / times.bare[i]);
  const ratio = lib.median(ratios);
  rows.push(
    `| ${c.name} | ${lib.spread(times.bare)} s | ${lib.spread(times.api)} s | ${lib.spread(ratios, 3)}× | ≤ ${c.goal}×: ${lib.verdict(ratio <= c.goal)} (${ratios.filter((r) => r <= c.goal).length} of ${ROUNDS} rounds); load ${lib.load()} |`,
  );
}

const video = cases[1];
const queued = { bare: [], api: [] };
for (let i = 0; i < 3; i += 1) {
  queued.bare.push(
    await lib.seconds(async () => {
      for (let j = 0; j < QUEUED; j += 1) await bareFfmpeg(video);
    }),
  );
  queued.api.push(
    await lib.seconds(() => Promise.all(Array.from({ length: QUEUED }, () => viaApi(video)))),
  );
}
await refract.stop();
sink.stop();
rmSync(work, { recursive: true, force: true });
const queuedRatios = queued.api.map((api, i) => api / queued.bare[i]);
const queuedRatio = lib.median(queuedRatios);

lib.writeResults(
  'media-convert',
  `# Audio and video jobs: the API against bare ffmpeg

${lib.measuredOn()}

One request at a time, ${ROUNDS} alternating rounds: median (lowest–highest) of the times, and of each round's ratio. The server is started by \`scripts/start.sh\` (\`npm start\`) at the defaults (WORKERS = half the cores, log level info). The API's wall time is the whole request: upload to disk, probe (playlist scan and ffprobe), quota, job queue, ffmpeg, result streamed back.
Bare ffmpeg gets the arguments Refract passes, at the same priority (nice 10), reading and writing local files.

| job | bare ffmpeg | through the API | ratio | goal |
|---|---|---|---|---|
${rows.join('\n')}
| ${QUEUED} × the 1080p clip: queued at once (API, WORKERS=${WORKERS}) against back to back (bare), 3 rounds | ${lib.spread(queued.bare)} s | ${lib.spread(queued.api)} s | ${lib.spread(queuedRatios, 3)}× | ≤ 1.1×: ${lib.verdict(queuedRatio <= 1.1)} |

The floor: what bare ffmpeg plus the two steps no server can skip cost, measured in the same run (median and spread of ${ROUNDS}, the floor from each round's own times):
the upload (the same multipart request, to a bare node:http process that only writes it to disk) and one ffprobe of the file.
A ratio through the API below the floor's needs the encode to start before the upload ends.

| job | upload to a bare sink | ffprobe alone | floor: (bare + upload + ffprobe) / bare |
|---|---|---|---|
${floors.join('\n')}

Arguments (input and output paths aside), audio: \`${refractArgs({ ...cases[0], input: 'IN' }, 'OUT').join(' ')}\`
video: \`${refractArgs({ ...video, input: 'IN' }, 'OUT').join(' ')}\`
`,
);
