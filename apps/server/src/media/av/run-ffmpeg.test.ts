import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { ffmpegFor, until } from '../../test/jobs.js';
import { runFfmpeg } from './run-ffmpeg.js';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
/** The ffmpeg (not the holder, whose command line names the tag too). */
const ffmpegTagged = (tag: string) => ffmpegFor(`comment=${tag}`);
const pidOf = (tag: string) =>
  execFileSync('pgrep', ['-f', `comment=${tag}`])
    .toString()
    .trim()
    .split('\n')[0]!;

describe.skipIf(!hasFfmpeg)('ffmpeg processes', () => {
  it.skipIf(process.platform !== 'linux')(
    'die with the process that runs them, even one killed with -9, and carry their own time limit',
    async () => {
      const tag = randomUUID();
      const holder = spawn(
        join(repoRoot, 'node_modules/.bin/tsx'),
        ['--conditions=source', join(repoRoot, 'apps/server/src/test/ffmpeg-holder.ts'), tag],
        { stdio: 'ignore' },
      );
      try {
        await until(() => ffmpegTagged(tag).length > 0, 'ffmpeg to start');
        // 600 s of wall time, times the CPU factor for its threads.
        expect(ffmpegTagged(tag)[0]).toContain('-timelimit 3000');
        // tsx runs the script in a child node process: kill that one, ffmpeg's parent.
        const ffmpegPid = pidOf(tag);
        const parent = execFileSync('ps', ['-o', 'ppid=', '-p', ffmpegPid]).toString().trim();
        process.kill(Number(parent), 'SIGKILL');
        await until(() => ffmpegTagged(tag).length === 0, 'ffmpeg to die with its parent');
      } finally {
        holder.kill('SIGKILL');
      }
    },
  );

  it('stop at the time limit, answering processing_timeout', async () => {
    const tag = randomUUID();
    const run = runFfmpeg(
      'ffmpeg',
      ['-re', '-f', 'lavfi', '-i', 'sine=duration=60', '-metadata', `comment=${tag}`].concat([
        '-f',
        'null',
        '-',
      ]),
      { timeoutMs: 1000 },
    );
    await expect(run).rejects.toMatchObject({ code: 'processing_timeout' });
    expect(ffmpegFor(tag)).toEqual([]);
  });
});
