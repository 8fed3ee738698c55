// Upload memory: the server's resident memory while a ~100 MB video is uploaded to
// compress-video and the job runs, against the same process idle. Uploads stream to disk and
// results stream back, so the peak should not grow with the file.
import { statSync, writeFileSync } from 'node:fs';
import { clip } from './fixtures.mjs';
import * as lib from './lib.mjs';

const GOAL_MB = 64;
const video = await clip({ size: '1920x1080', seconds: 20, bitrate: '38M' });

const refract = await lib.startRefractAsAdmin(lib.port(2));
const { kb, sampled } = lib.memoryOf(refract.pid);
const mb = (k) => k / 1024;

await lib.sleep(2000); // let start-up garbage settle
const idle = lib.percentile(await sampled(() => lib.sleep(1000)), 0.5);
// Reset the kernel's peak (VmHWM) so it covers the upload and job only, between our samples too.
let hwmReset = true;
try {
  writeFileSync(`/proc/${refract.pid}/clear_refs`, '5');
} catch {
  hwmReset = false;
}
let seconds;
const samples = await sampled(async () => {
  seconds = await lib.seconds(() =>
    lib.postFile(`${refract.base}/api/video/compress-video`, refract.token, 'video', video, {
      percentage: '40',
    }),
  );
});
const hwm = kb('VmHWM');
await refract.stop();

const peak = Math.max(...samples, hwmReset ? hwm : 0);
const delta = mb(peak - idle);
lib.writeResults(
  'upload-memory',
  `# Upload memory: a ${(statSync(video).size / 1e6).toFixed(0)} MB video uploaded and compressed

${lib.measuredOn()}

POST /api/video/compress-video (percentage 40) of a 20-second 1080p h264 clip at 38 Mbit/s, streamed from disk by the client; the request waits for the job and downloads the result (${seconds.toFixed(1)} s in all). The server's resident memory (VmRSS) was read every 20 ms${hwmReset ? ", and the kernel's peak (VmHWM) was reset before the upload and read after it" : ''}.

| server process | MB |
|---|---|
| idle (after start-up and sign-in, median of 1 s) | ${mb(idle).toFixed(1)} |
| peak during upload, probe, job and download | ${mb(peak).toFixed(1)} (sampled ${mb(Math.max(...samples)).toFixed(1)}${hwmReset ? `, kernel ${mb(hwm).toFixed(1)}` : ''}) |
| **above idle** | **${delta.toFixed(1)}** |

Goal: less than ${GOAL_MB} MB above idle: ${lib.verdict(delta < GOAL_MB)}.

ffmpeg runs as its own process and is not counted: its memory follows the video's resolution, not the file's size.
`,
);
