import { runFfmpeg } from '../media/av/run-ffmpeg.js';

/**
 * A process that runs one long ffmpeg and waits (run-ffmpeg.test.ts kills it with -9 and
 * checks its ffmpeg died too). argv[2] tags the command line so the test can find it.
 */
const tag = process.argv[2]!;
await runFfmpeg(
  process.env.FFMPEG_PATH ?? 'ffmpeg',
  [
    '-re',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=600',
    '-metadata',
    `comment=${tag}`,
    '-f',
    'null',
    '-',
  ],
  { timeoutMs: 600_000 },
);
