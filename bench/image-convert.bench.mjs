// Image convert throughput: 40 photos of 12 MP, JPEG → WebP, 4 in flight, three ways in one run:
// through the real server (HTTP, auth, metering, multipart to disk, result streamed back),
// in-process sharp (the engine Refract wraps), and ImageMagick's CLI spawned per file.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const PHOTOS = 40;
const CONCURRENCY = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const paths = [];
for (let i = 0; i < PHOTOS; i += 1) paths.push(await photo(i));
const buffers = paths.map((p) => readFileSync(p));
const megabytes = buffers.reduce((sum, b) => sum + b.length, 0) / PHOTOS / 1e6;

// Debian's real binary only: PATH may hold stand-ins (this machine's /usr/local/bin/convert is one).
const magickBin = ['/usr/bin/magick', '/usr/bin/convert'].find(
  (bin) =>
    existsSync(bin) && /ImageMagick/.test(execFileSync(bin, ['-version'], { encoding: 'utf8' })),
);
const out = mkdtempSync(join(tmpdir(), 'refract-bench-magick-'));

// The same settings both ways: sharp's WebP defaults (quality 80), orientation applied.
const runs = {
  sharp: () =>
    lib.inFlight(buffers, CONCURRENCY, (jpeg) => sharp(jpeg).autoOrient().webp().toBuffer()),
  api: () =>
    lib.inFlight(paths, CONCURRENCY, (path) =>
      lib.postFile(`${refract.base}/api/convert`, refract.token, 'image', path, {
        format: 'webp',
      }),
    ),
  magick: () =>
    lib.inFlight(paths, CONCURRENCY, (path) =>
      promisify(execFile)(magickBin, [
        path,
        '-auto-orient',
        '-quality',
        '80',
        join(out, `${paths.indexOf(path)}.webp`),
      ]),
    ),
};
if (!magickBin) delete runs.magick;

// An admin is unlimited, so the quota does not stop the run; the work per request is the same.
const refract = await lib.startRefractAsAdmin(lib.port(1));
// Warm: the server's first sharp load and upload directory. Then one photo through the CLI:
// whether it writes the very bytes sharp does tells whether the two do the same work.
await lib.inFlight(paths.slice(0, CONCURRENCY), CONCURRENCY, (path) =>
  lib.postFile(`${refract.base}/api/convert`, refract.token, 'image', path, { format: 'webp' }),
);
let sameBytes;
if (runs.magick) {
  execFileSync(magickBin, [paths[0], '-auto-orient', '-quality', '80', join(out, '0.webp')]);
  const fromSharp = await sharp(buffers[0]).autoOrient().webp().toBuffer();
  sameBytes = fromSharp.equals(readFileSync(join(out, '0.webp')));
}
const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
// Alternate rounds so every path sees the same machine noise; each round's ratios, then medians.
for (let round = 0; round < ROUNDS; round += 1)
  for (const [name, run] of Object.entries(runs)) times[name].push(await run());
await refract.stop();
rmSync(out, { recursive: true, force: true });

const rate = (name) => PHOTOS / lib.median(times[name]);
/** Each round's rate of `name` over `to`'s in the same round (times are inverse rates). */
const ratios = (name, to) => times[name].map((t, i) => times[to][i] / t);
const vsSharp = lib.median(ratios('api', 'sharp'));
const vsMagick = runs.magick && lib.median(ratios('api', 'magick'));
const row = (label, name) =>
  `| ${label} | ${rate(name).toFixed(2)} | ${lib.spread(ratios(name, 'sharp'))} |`;
lib.writeResults(
  'image-convert',
  `# Image convert throughput: 12 MP JPEG → WebP

${lib.measuredOn()}

${PHOTOS} generated photos of 4000×3000 (12 MP, ${megabytes.toFixed(1)} MB JPEG on average), ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds: images/s from the median time, ratios the median (lowest–highest) of each round's. Load average at the end: ${lib.load()}.

| path | images/s | ratio to sharp |
|---|---|---|
${row('sharp in-process, buffer to buffer', 'sharp')}
${row('Refract API: 4 clients, HTTP, auth, metering, multipart to disk, result streamed back', 'api')}
${runs.magick ? row(`ImageMagick CLI spawned per file (\`${magickBin}\`, quality 80)`, 'magick') : '| ImageMagick CLI | not run: no /usr/bin/convert or /usr/bin/magick (install `imagemagick`) | |'}

| goal | result | |
|---|---|---|
| API ≥ 0.85× in-process sharp | ${vsSharp.toFixed(2)}× | ${lib.verdict(vsSharp >= 0.85)} |
| API ≥ 3× ImageMagick CLI | ${vsMagick ? `${vsMagick.toFixed(2)}×` : 'not measured'} | ${vsMagick ? lib.verdict(vsMagick >= 3) : 'not measured'} |

The server and this script share the cores; while one path runs the others are idle.
${sameBytes ? 'ImageMagick and sharp write byte-identical WebP here: both hand the pixels to libwebp with the same settings, and the WebP encoder is nearly all of the work, so no wrapper can be 3× faster than the other on this conversion.' : ''}
`,
);
