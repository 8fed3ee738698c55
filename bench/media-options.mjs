// Media options against bare ffmpeg with the same arguments: a trim by stream copy and a
// target size (two passes), on a 1080p clip of 60 s. Run by media-convert.bench.mjs, on its server.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { convertVideoFieldsSchema, compressVideoFieldsSchema } from '@refract/contracts';
import { planArgs } from '../apps/server/dist/media/av/av-plan.js';
import { keyframeAt } from '../apps/server/dist/media/av/keyframes.js';
import { probeMedia } from '../apps/server/dist/media/av/probe.js';
import { planVideo } from '../apps/server/dist/media/av/video-plan.js';
import { clip } from './fixtures.mjs';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The first key frame at or after `after` seconds: a trim from there is a stream copy. */
function keyframeAfter(input, after) {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-skip_frame', 'nokey'],
    ...['-show_entries', 'frame=pts_time', '-of', 'csv=p=0', input],
  ]);
  return out
    .toString()
    .split('\n')
    .map(Number)
    .find((time) => time >= after);
}

/** What transcode.ts and run-ffmpeg.ts pass ffmpeg, argument for argument, for one pass. */
function argsFor({ input, probe, plan, limits }, videoCodec, output, muxer) {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-progress', 'pipe:1', '-nostats'],
    ...['-max_alloc', String(256 * 1024 * 1024), '-protocol_whitelist', 'file'],
    ...['-max_pixels', String(limits.maxPixels), '-threads', '2', ...plan.seek],
    ...['-f', probe.demuxer, '-i', input],
    ...(output === '-'
      ? [
          '-map',
          '0:v:0',
          ...plan.filters,
          ...videoCodec,
          '-an',
          ...(plan.tail[0] === '-t' ? plan.tail.slice(0, 2) : []),
        ]
      : planArgs(plan, videoCodec)),
    ...['-threads', '2', ...(output === '-' ? [] : ['-fs', String(limits.maxOutputBytes)])],
    ...['-f', muxer, output],
  ];
}

function ffmpeg(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    setPriority(child.pid, 10);
    child.stdout.resume();
    let log = '';
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(log))));
  });
}

const median = (xs) => lib.percentile(xs, 0.5);
const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} s`;

export async function optionRuns({ refract, work, limits }) {
  const input = await clip({ size: '1920x1080', seconds: 60, bitrate: '8M' });
  const probe = await probeMedia('ffprobe', input, limits, { containsIndirection: false });
  const start = keyframeAfter(input, 20);
  const cases = [
    {
      name: `trim ${start.toFixed(2)}–${(start + 30).toFixed(2)} s by stream copy → MP4`,
      route: '/api/video/convert-video',
      fields: { format: 'mp4', start: String(start), end: String(start + 30) },
      schema: convertVideoFieldsSchema,
      expect: (plan) => plan.applied.trimBy === 'stream copy',
    },
    {
      name: 'target size 8 MB at 480p (two passes) → MP4',
      route: '/api/video/compress-video',
      fields: { targetSize: '8', resolution: '480' },
      schema: compressVideoFieldsSchema,
      expect: (plan) => plan.target?.twoPass === 'pass',
    },
  ];
  const rows = [];
  const commands = [];
  for (const c of cases) {
    const { format, percentage, ...fields } = c.schema.parse(c.fields);
    const plan = await planVideo({
      fields,
      probe,
      format: format ?? 'mp4',
      compressPercentage: fields.targetSize === undefined ? percentage : undefined,
      maxPixels: limits.maxPixels,
      keyframeAt: (at) => keyframeAt('ffprobe', input, probe.demuxer, at, 1 / probe.frameRate),
    });
    if (!c.expect(plan))
      throw new Error(`${c.name}: not planned as expected (${JSON.stringify(plan.applied)})`);
    const job = { input, probe, plan, limits };
    const out = join(work, 'option-out.mp4');
    const passLog = join(work, 'pass');
    const bare = async () => {
      if (plan.target) {
        const pass = (n) => ['-pass', String(n), '-passlogfile', passLog];
        await ffmpeg(argsFor(job, [...plan.videoCodec, ...pass(1)], '-', 'null'));
        await ffmpeg(argsFor(job, [...plan.videoCodec, ...pass(2)], out, 'mp4'));
      } else await ffmpeg(argsFor(job, plan.videoCodec, out, 'mp4'));
    };
    const viaApi = () =>
      lib.postFile(`${refract.base}${c.route}`, refract.token, 'video', input, c.fields);
    const times = { bare: [], api: [] };
    let bytes = 0;
    for (let i = 0; i < ROUNDS; i += 1) {
      times.bare.push(await lib.seconds(bare));
      times.api.push(await lib.seconds(async () => (bytes = await viaApi())));
    }
    const ratio = median(times.api) / median(times.bare);
    rows.push(
      `| ${c.name} | ${median(times.bare).toFixed(2)} s (${spread(times.bare)}) | ${median(times.api).toFixed(2)} s (${spread(times.api)}) | ${ratio.toFixed(3)}× | ${(bytes / 1e6).toFixed(2)} MB | ≤ 1.1×: ${lib.verdict(ratio <= 1.1)} |`,
    );
    commands.push(
      `${c.name}: \`ffmpeg ${argsFor({ ...job, input: 'IN' }, plan.videoCodec, 'OUT', 'mp4').join(' ')}\``,
    );
    rmSync(out, { force: true });
  }
  return { rows, commands, rounds: ROUNDS };
}
