// Audio and video convert through the real server (HTTP, auth, metering, upload to disk, probe,
// job queue, progress heartbeats) against the same ffmpeg command run directly, one at a time.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRefractAsAdmin, writeResults } from './lib.mjs';

const work = mkdtempSync(join(tmpdir(), 'refract-bench-media-'));
const ffmpeg = (args) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

const wav = join(work, 'tone.wav');
ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=120', '-ac', '2', wav]);
const mp4 = join(work, 'clip.mp4');
ffmpeg([
  ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30:duration=10'],
  ...[
    '-f',
    'lavfi',
    '-i',
    'sine=duration=10',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    mp4,
  ],
]);

// The same encoder settings Refract uses (apps/server/src/media/av/media-formats.ts).
const cases = [
  {
    name: 'WAV (2 min) → MP3',
    input: wav,
    field: 'audio',
    path: '/api/audio/convertaudio',
    format: 'mp3',
    args: ['-map', '0:a:0', '-vn', '-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3'],
  },
  {
    name: 'MP4 720p (10 s) → MP4',
    input: mp4,
    field: 'video',
    path: '/api/video/convert-video',
    format: 'mp4',
    args: [
      ...['-map', '0:v:0', '-map', '0:a:0?', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart', '-f', 'mp4'],
    ],
  },
];

const seconds = (task) => async () => {
  const started = performance.now();
  await task();
  return (performance.now() - started) / 1000;
};

const refract = await startRefractAsAdmin(3111);
const rows = [];
for (const c of cases) {
  const bytes = readFileSync(c.input);
  const direct = seconds(() => {
    const run = spawnSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-i',
      c.input,
      ...c.args,
      join(work, 'out'),
    ]);
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
  });
  const viaApi = seconds(async () => {
    const form = new FormData();
    form.append('format', c.format);
    form.append(c.field, new Blob([bytes]), 'input');
    const res = await fetch(`${refract.base}${c.path}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${refract.token}` },
    });
    if (!res.ok) throw new Error(`${c.path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  });
  // Alternate rounds so both sides see the same machine noise; keep the best of each.
  const times = { direct: [], api: [] };
  for (let i = 0; i < 3; i += 1) {
    times.direct.push(await direct());
    times.api.push(await viaApi());
  }
  const best = { direct: Math.min(...times.direct), api: Math.min(...times.api) };
  rows.push(
    `| ${c.name} | ${best.direct.toFixed(2)} s | ${best.api.toFixed(2)} s | ${(best.direct / best.api).toFixed(2)} |`,
  );
}
await refract.stop();
rmSync(work, { recursive: true, force: true });

writeResults(
  'media-convert',
  `# Audio and video convert: Refract against bare ffmpeg

${new Date().toISOString().slice(0, 10)}, one request at a time, best of 3 alternating rounds. Refract's time includes
the upload, probing (ffprobe and the playlist scan), the job queue, heartbeats, and streaming the result back.

| conversion | ffmpeg directly | through Refract | speed ratio (1.00 = no overhead) |
|---|---|---|---|
${rows.join('\n')}

Refract runs ffmpeg at a lower CPU priority (nice 10); on an otherwise idle machine that costs nothing.
`,
);
