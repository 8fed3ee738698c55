// Resumable uploads (tus 1.0.0, POST/HEAD/PATCH /api/uploads): a ~1 GB real video (H.264 +
// AAC made by ffmpeg from lavfi sources, not zeros) sent on loopback to the server as
// `npm start` runs it, against `curl -T` of the same file to a bare node:http sink that only
// writes it to the same disk, rounds interleaved. Also: the server's RSS rise during the tus
// upload, and the same upload cut at 30 % and 70 % and resumed, compared byte for byte.
// Goals: tus ≥ 0.8× curl's throughput; RSS rise ≤ 50 MB; the resumed file byte-identical.
// `npm run build && node bench/tus-upload.bench.mjs` (BENCH_ROUNDS, default 3).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lib from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_RATIO = 0.8;
const GOAL_RISE_MB = 50;
const CUTS = [0.3, 0.7];
const TUS = { 'tus-resumable': '1.0.0' };
const MB = 1e6;
const mib = (kb) => kb / 1024;

/**
 * The video, cached beside fixtures.mjs's (same directory, same write-then-rename, so a run
 * stopped half way leaves no truncated file). x264 ultrafast at 100 Mbit/s with strong temporal
 * grain: fast to make (about real time on 2 cores) and as incompressible as camera footage;
 * 78 s lands near 1 GB (x264 overshoots the bitrate a little on this grain).
 */
const VIDEO_SECONDS = 78;
const FIXTURES = join(tmpdir(), 'refract-bench-fixtures-v1');
const VIDEO = join(FIXTURES, `tus-1080p-${VIDEO_SECONDS}s-100M.mp4`);
const VIDEO_ARGS = [
  ...['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=25:duration=${VIDEO_SECONDS}`],
  ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${VIDEO_SECONDS}`],
  ...['-vf', 'noise=alls=40:allf=t:all_seed=1', '-c:v', 'libx264', '-preset', 'ultrafast'],
  ...['-b:v', '100M', '-maxrate', '100M', '-bufsize', '200M', '-pix_fmt', 'yuv420p'],
  ...['-c:a', 'aac', '-b:a', '160k'],
];

function video() {
  const path = VIDEO;
  if (existsSync(path)) return { path, madeIn: undefined };
  mkdirSync(FIXTURES, { recursive: true });
  const partial = join(FIXTURES, `partial-${VIDEO_SECONDS}s-tus.mp4`);
  const started = performance.now();
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...VIDEO_ARGS, partial]);
  renameSync(partial, path);
  const madeIn = (performance.now() - started) / 1000;
  console.log(
    `made ${path} (${(statSync(path).size / MB).toFixed(0)} MB) in ${madeIn.toFixed(0)} s`,
  );
  return { path, madeIn };
}

const freeBytes = (dir) => {
  const disk = statfsSync(dir);
  return disk.bavail * disk.bsize;
};

/** Resolves to `check()`'s first truthy answer, polled every 50 ms; throws after `ms`. */
async function until(check, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await check();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await lib.sleep(50);
  }
}

async function sha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/** The bytes of the file on disk, 0 while it does not exist yet. */
const sizeOf = (path) => (existsSync(path) ? statSync(path).size : 0);

// ---- The baseline: curl to a bare node:http sink ----------------------------------------

/** Streams the body to SINK_FILE and answers 204 once it is all written; no parsing, no checks. */
const SINK = `(req, res) => {
  req.pipe(require('node:fs').createWriteStream(process.env.SINK_FILE)).on('finish', () => {
    res.writeHead(204);
    res.end();
  });
}`;

/** `curl -sS -T file url`, the way a user would send a file; resolves when curl exits 0. */
function curlPut(file, url) {
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', ['-sS', '-T', file, url], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    curl.stderr.on('data', (chunk) => (stderr += chunk));
    curl.on('error', reject);
    curl.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`curl exited ${code}: ${stderr}`)),
    );
  });
}

// ---- A minimal tus client: node:http, no dependency -------------------------------------

function tusClient(refract) {
  const auth = { ...TUS, authorization: `Bearer ${refract.token}` };
  const url = (id = '') => `${refract.base}/api/uploads${id ? `/${id}` : ''}`;
  return {
    /** POST: makes the upload; answers its id (the last part of Location). */
    async create(size, filename) {
      const res = await fetch(url(), {
        method: 'POST',
        headers: {
          ...auth,
          'upload-length': String(size),
          'upload-metadata': `filename ${Buffer.from(filename).toString('base64')}`,
        },
      });
      if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
      return res.headers.get('location').split('/').pop();
    },
    /** HEAD: what the server has. */
    async offset(id) {
      const res = await fetch(url(id), { method: 'HEAD', headers: auth });
      return { status: res.status, offset: Number(res.headers.get('upload-offset')) };
    },
    async drop(id) {
      const res = await fetch(url(id), { method: 'DELETE', headers: auth });
      if (res.status !== 204) throw new Error(`DELETE answered ${res.status}: ${await res.text()}`);
    },
    /** PATCH from `offset`: see `sendFile`. */
    patch: (id, file, size, offset, cut) =>
      sendFile(url(id), { ...auth, 'upload-offset': String(offset) }, file, size, offset, cut),
  };
}

/**
 * A PATCH of `file` from `offset` to its end, streamed from disk into the request
 * (Content-Length: the rest of the file). With `cut`, only the bytes up to `cut.at` are
 * written; once `cut.arrived()` says the server has them, the socket is destroyed, as a dropped
 * connection would be. Resolves to the answer's status and Upload-Offset, or to 'cut'.
 */
function sendFile(url, headers, file, size, offset = 0, cut = undefined) {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'PATCH',
      agent: false, // a connection of its own, which the cut can destroy
      headers: {
        ...headers,
        'content-type': 'application/offset+octet-stream',
        'content-length': String(size - offset),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode, offset: Number(res.headers['upload-offset']) }),
      );
    });
    req.on('error', (err) => (cut ? undefined : reject(err))); // the cut's own ECONNRESET
    const source = createReadStream(file, { start: offset, end: (cut?.at ?? size) - 1 });
    source.on('error', reject);
    source.pipe(req, { end: !cut });
    if (cut)
      source.on('end', () =>
        cut.arrived().then(() => {
          req.destroy();
          resolve({ status: 'cut' });
        }, reject),
      );
  });
}

// ---- The server -------------------------------------------------------------------------

/** The server's DATA_DIR (startRefract makes a fresh one), read from its own environment. */
const dataDirOf = (pid) =>
  readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((v) => v.startsWith('DATA_DIR='))
    .slice('DATA_DIR='.length);

/** Resets the kernel's peak RSS (VmHWM), so it covers what follows, between samples too. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  // Fields after the command name (which may hold spaces); utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ: 100 on Linux
}

/** The highest RSS sample in each quarter of the upload: a rise that follows the bytes climbs. */
const quarters = (samples) =>
  [0, 1, 2, 3].map((q) =>
    Math.max(
      ...samples.slice(
        Math.floor((q * samples.length) / 4),
        Math.ceil(((q + 1) * samples.length) / 4),
      ),
    ),
  );

// ---- Run --------------------------------------------------------------------------------

try {
  execFileSync('sh', ['-c', 'command -v curl'], { stdio: 'ignore' });
} catch {
  console.error('curl is not installed: the baseline needs it (apt-get install curl).');
  process.exit(1);
}
// Cached video (≈1 GB), one upload kept at a time (1 GB), the server's own check (twice the
// upload free when it is made) and the sink's copy, gone by then: 4 GB leaves a margin.
const NEEDED = 4e9 + (existsSync(VIDEO) ? 0 : 1.1e9);
if (freeBytes(tmpdir()) < NEEDED) {
  console.error(
    `${tmpdir()} has ${(freeBytes(tmpdir()) / 1e9).toFixed(1)} GB free; this bench needs ${(NEEDED / 1e9).toFixed(1)} GB (a 1 GB video, one upload at a time, the server's 2× check). Free some space or set TMPDIR.`,
  );
  process.exit(1);
}

const { path: file, madeIn } = video();
const size = statSync(file).size;
if (size < 0.9e9 || size > 1.1e9)
  console.warn(`the video is ${(size / MB).toFixed(0)} MB, not about 1 GB: change VIDEO_SECONDS`);
const sourceHash = await sha256(file);
const loadAtStart = lib.load();

const work = mkdtempSync(join(tmpdir(), 'refract-bench-tus-sink-'));
const sinkFile = join(work, 'upload');
const running = [];
async function cleanUp() {
  for (const stop of running.splice(0).reverse()) await stop();
  rmSync(work, { recursive: true, force: true });
}
// Ctrl-C or a kill mid-upload: stop the server and the sink, remove the temp dirs.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => cleanUp().finally(() => process.exit(130)));

const rounds = [];
let cutRun;
try {
  const refract = await lib.startRefractAsAdmin(lib.port(20));
  running.push(() => refract.stop());
  const sinkPort = lib.port(21);
  if (
    await fetch(`http://127.0.0.1:${sinkPort}/`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${sinkPort} is already in use: stop what listens there first`);
  const sink = await lib.startBareServer(sinkPort, SINK, { SINK_FILE: sinkFile });
  running.push(async () => sink.stop());
  const dataDir = dataDirOf(refract.pid);
  const stored = (id) => join(dataDir, 'uploads', id);
  // Same filesystem, so both sides write to the same disk.
  if (statSync(dataDir).dev !== statSync(work).dev)
    throw new Error(`DATA_DIR (${dataDir}) and the sink (${work}) are on different filesystems`);
  const tus = tusClient(refract);
  const { kb, sampled } = lib.memoryOf(refract.pid);
  await lib.sleep(2000); // let start-up garbage settle before the first idle reading

  for (let r = 1; r <= ROUNDS; r += 1) {
    const loadBefore = lib.load();

    const curlSeconds = await lib.seconds(() => curlPut(file, `${sink.url}sink`));
    if (sizeOf(sinkFile) !== size)
      throw new Error(`the sink got ${sizeOf(sinkFile)} bytes of ${size}`);
    rmSync(sinkFile);

    // The bench's own client to the same sink: what the tus leg costs the client side alone.
    const nodeSeconds = await lib.seconds(async () => {
      const res = await sendFile(`${sink.url}sink`, {}, file, size);
      if (res.status !== 204) throw new Error(`the sink answered ${res.status}`);
    });
    if (sizeOf(sinkFile) !== size)
      throw new Error(`the sink got ${sizeOf(sinkFile)} bytes of ${size}`);
    rmSync(sinkFile);

    // The server's RSS: the median of 1 s idle before, every 20 ms during (lib.memoryOf), and
    // the kernel's peak since the reset.
    const before = lib.percentile(await sampled(() => lib.sleep(1000)), 0.5);
    const hwmReset = resetPeak(refract.pid);
    const cpuBefore = cpuSeconds(refract.pid);
    let id;
    let answer;
    let tusSeconds;
    const samples = await sampled(async () => {
      tusSeconds = await lib.seconds(async () => {
        id = await tus.create(size, 'bench.mp4');
        answer = await tus.patch(id, file, size, 0);
      });
    });
    const peak = Math.max(...samples, hwmReset ? kb('VmHWM') : 0);
    const cpu = (cpuSeconds(refract.pid) - cpuBefore) / tusSeconds;
    if (answer.status !== 204 || answer.offset !== size)
      throw new Error(`PATCH answered ${answer.status}, Upload-Offset ${answer.offset} of ${size}`);
    const hash = await sha256(stored(id));
    await tus.drop(id); // one upload on disk at a time
    rounds.push({
      curl: size / MB / curlSeconds,
      node: size / MB / nodeSeconds,
      tus: size / MB / tusSeconds,
      before: mib(before),
      peak: mib(peak),
      rise: mib(peak - before),
      hwmReset,
      cpu,
      quarters: quarters(samples).map((k) => mib(k - before)),
      hash,
      load: `${loadBefore} → ${lib.load()}`,
    });
    console.log(`round ${r}:`, rounds.at(-1));
  }

  // Cut at 30 % and 70 % (the server has every byte sent so far, then the socket goes), HEAD
  // for the offset, resume from it; the rest in one last PATCH.
  const loadBefore = lib.load();
  const id = await tus.create(size, 'bench.mp4');
  const heads = [];
  let offset = 0;
  for (const share of CUTS) {
    const at = Math.floor(size * share);
    await tus.patch(id, file, size, offset, {
      at,
      arrived: () => until(() => sizeOf(stored(id)) === at, `${at} bytes on disk`),
    });
    // tus may hold the upload's lock a moment after the connection is gone.
    const head = await until(async () => {
      const h = await tus.offset(id);
      return h.status === 200 ? h : undefined;
    }, 'HEAD after the cut');
    heads.push({ cutAt: at, offset: head.offset });
    offset = head.offset;
  }
  const last = await tus.patch(id, file, size, offset);
  const storedHash = await sha256(stored(id));
  await tus.drop(id);
  cutRun = {
    heads,
    last,
    storedHash,
    identical: storedHash === sourceHash && storedHash === rounds[0].hash,
    load: `${loadBefore} → ${lib.load()}`,
  };
  console.log('cut and resumed:', cutRun);
} finally {
  await cleanUp();
}

// ---- Results ----------------------------------------------------------------------------

const pick = (key) => rounds.map((round) => round[key]);
const ratio = lib.median(pick('tus')) / lib.median(pick('curl'));
const ratiosMet = rounds.filter((round) => round.tus / round.curl >= GOAL_RATIO).length;
const riseMet = rounds.filter((round) => round.rise <= GOAL_RISE_MB).length;
const allStoredEqual = rounds.every((round) => round.hash === sourceHash);
const f1 = (x) => x.toFixed(1);

lib.writeResults(
  'tus-upload',
  `# Resumable uploads (tus): a ${(size / MB).toFixed(0)} MB video on loopback

${lib.measuredOn()} Load average (1 min) at the start of the run: ${loadAtStart}.

Rerun: \`npm run build && node bench/tus-upload.bench.mjs\` (\`BENCH_ROUNDS\`, default 3).

The file: ${size} bytes, ${VIDEO_SECONDS} s of 1920×1080 25 fps H.264 (x264 ultrafast, 100 Mbit/s, \`testsrc2\` with strong temporal grain) and a 440 Hz AAC track, made by Debian's ffmpeg from lavfi sources and cached in \`${FIXTURES}\`${madeIn === undefined ? ' (by an earlier run)' : ` (made in this run in ${madeIn.toFixed(0)} s)`}.

Each round, one after the other on the same machine: \`curl -sS -T <file> http://127.0.0.1:<port>/sink\` to a bare node:http process (its own process) that only pipes the body to a file on the same filesystem as DATA_DIR and answers 204; the bench's node:http client to the same sink; then the server as \`npm start\` runs it (\`scripts/start.sh\`, defaults, log level info), signed in as its admin: POST /api/uploads (\`Upload-Length\`), then one PATCH with the file streamed from disk (node:http, \`Content-Length\` = the file), timed from the POST to the PATCH's 204. MB/s are 10⁶ bytes a second; each stored upload is checked by sha256 against the source, then deleted (DELETE /api/uploads/<id>). The server's VmRSS is read from /proc every 20 ms during the tus upload against the median of the idle second before it${rounds.every((round) => round.hwmReset) ? ", the peak the higher of the samples and the kernel's own (VmHWM, reset before the upload)" : ''}.

Throughput, each round (the third column is a reference, not a goal: the same node:http client the tus leg uses, PATCHing the file to the bare sink, so what the client side costs is visible; server CPU is its user + system time during the tus upload over the upload's wall time, in cores):

| round | curl → bare sink, MB/s | bench's node:http client → bare sink, MB/s | tus through the server, MB/s | tus ÷ curl | server CPU during tus, cores | load average before → after |
|---|---|---|---|---|---|---|
${rounds
  .map(
    (round, i) =>
      `| ${i + 1} | ${f1(round.curl)} | ${f1(round.node)} | ${f1(round.tus)} | ${(round.tus / round.curl).toFixed(3)}× | ${round.cpu.toFixed(2)} | ${round.load} |`,
  )
  .join('\n')}

The server's memory, each round (MiB; the last column is the highest sample in each quarter of the upload's time, above the idle before it: a rise that follows the bytes climbs quarter by quarter, one that does not levels off):

| round | RSS before | RSS peak | rise | rise by quarter of the upload |
|---|---|---|---|---|
${rounds
  .map(
    (round, i) =>
      `| ${i + 1} | ${f1(round.before)} | ${f1(round.peak)} | ${f1(round.rise)} | ${round.quarters.map(f1).join(', ')} |`,
  )
  .join('\n')}

| measure, median (lowest–highest) of ${rounds.length} rounds | curl → bare sink | tus through the server | result | goal |
|---|---|---|---|---|
| throughput, MB/s | ${lib.spread(pick('curl'), 1)} | ${lib.spread(pick('tus'), 1)} | ${ratio.toFixed(3)}× (ratio of the medians; the bench's node:http client → bare sink ${lib.spread(pick('node'), 1)} MB/s, ${(lib.median(pick('node')) / lib.median(pick('curl'))).toFixed(3)}× curl) | ≥ ${GOAL_RATIO}×: ${lib.verdict(ratio >= GOAL_RATIO)} (${ratiosMet} of ${rounds.length} rounds) |
| server RSS rise during the upload, MiB | — | ${lib.spread(pick('rise'), 1)} | max ${f1(lib.max(pick('rise')))} | ≤ ${GOAL_RISE_MB}: ${lib.verdict(lib.max(pick('rise')) <= GOAL_RISE_MB)} (${riseMet} of ${rounds.length} rounds) |
| stored file = source (sha256) | — | ${rounds.filter((round) => round.hash === sourceHash).length} of ${rounds.length} | ${allStoredEqual ? 'yes' : '**no**'} | |

## Cut and resumed

One upload whose PATCH is cut (its socket destroyed by the client) once ${CUTS.map((c) => `${c * 100} %`).join(' and ')} of the file ${CUTS.length > 1 ? 'have' : 'has'} been written and the server's data file holds them; HEAD after each cut, the next PATCH from the offset it answers, the rest in a last PATCH. Load average ${cutRun.load}.

| after | bytes sent in all | HEAD Upload-Offset |
|---|---|---|
${cutRun.heads.map((h, i) => `| cut ${i + 1} (${CUTS[i] * 100} %) | ${h.cutAt} | ${h.offset} |`).join('\n')}
| the last PATCH | ${size} | ${cutRun.last.status}, Upload-Offset ${cutRun.last.offset} |

sha256 of the source \`${sourceHash.slice(0, 16)}…\`, of round 1's uncut upload \`${rounds[0].hash.slice(0, 16)}…\`, of the cut and resumed upload \`${cutRun.storedHash.slice(0, 16)}…\`: byte-identical: **${cutRun.identical ? 'yes' : 'no'}**.
`,
);
