import { execFile } from 'node:child_process';

/**
 * Whether a picture track has a key frame at `start` (within half a frame): only then can a trim
 * copy the streams and still begin exactly there. ffprobe seeks to the key frame at or before
 * `start` and reads a second of packet headers, not the whole file.
 */
export function keyframeAt(
  ffprobePath: string,
  input: string,
  demuxer: string,
  start: number,
  frameSeconds: number,
): Promise<boolean> {
  const args = [
    ...['-v', 'error', '-protocol_whitelist', 'file', '-f', demuxer, '-select_streams', 'v:0'],
    ...['-read_intervals', `${start}%+1`, '-show_entries', 'packet=pts_time,flags'],
    ...['-of', 'csv=p=0', input],
  ];
  return new Promise((resolve) => {
    execFile(ffprobePath, args, { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 }, (err, out) => {
      if (err) return resolve(false); // Unknown: the trim is re-encoded, exact either way.
      const keys = out
        .split('\n')
        .map((line) => line.split(','))
        .filter(([, flags]) => flags?.startsWith('K'))
        .map(([time]) => Number(time));
      resolve(keys.some((time) => Math.abs(time - start) <= frameSeconds / 2));
    });
  });
}
