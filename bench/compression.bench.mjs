// Compression quality: what Refract's Compress makes of PNG, JPEG and WebP photos at its
// defaults, beside sharp's own defaults and Debian's pngquant/jpegoptim CLIs (when installed),
// in one run: bytes out as a share of bytes in, and SSIM against the input (ssim.js, 1 = same).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const PHOTOS = 2;
const WIDTH = 1200;
const HEIGHT = 900;
const work = mkdtempSync(join(tmpdir(), 'refract-bench-compress-'));

/** Each photo in the three formats, as a camera or an editor would save it. */
const inputs = [];
for (let i = 0; i < PHOTOS; i += 1) {
  const jpeg = readFileSync(await photo(i, WIDTH, HEIGHT)); // quality 90
  const saved = async (format, bytes) => {
    const path = join(work, `photo-${i}.${format}`);
    writeFileSync(path, bytes);
    inputs.push({ format, path, bytes });
  };
  await saved('jpg', jpeg);
  await saved('png', await sharp(jpeg).png().toBuffer());
  await saved('webp', await sharp(jpeg).webp({ quality: 90 }).toBuffer());
}

const cli = (bin) => ['/usr/bin/', '/usr/local/bin/'].map((d) => d + bin).find(existsSync);
const pngquant = cli('pngquant');
const jpegoptim = cli('jpegoptim');

const refract = await lib.startRefractAsAdmin(lib.port(7));
/** Refract's Compress with no fields: the defaults a user gets (quality 80, format kept). */
async function viaRefract(input) {
  const form = new FormData();
  form.append('image', await openAsBlob(input.path), `photo.${input.format}`);
  const res = await fetch(`${refract.base}/api/compress`, {
    method: 'POST',
    headers: { authorization: `Bearer ${refract.token}` },
    body: form,
  });
  if (res.status === 422) return null; // already_compact: nothing smaller to give.
  if (!res.ok) throw new Error(`compress answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** sharp re-encoding in the same format with no options: its own defaults. */
const viaSharp = (input) => {
  const s = sharp(input.bytes);
  return (
    input.format === 'png' ? s.png() : input.format === 'jpg' ? s.jpeg() : s.webp()
  ).toBuffer();
};

/** The Debian CLI for the format, at its defaults (pngquant: 256 colours; jpegoptim: lossless). */
function viaCli(input) {
  if (input.format === 'png' && pngquant)
    return execFileSync(pngquant, ['-', '--output', '-'], { input: input.bytes, maxBuffer: 1e9 });
  if (input.format === 'jpg' && jpegoptim)
    return execFileSync(jpegoptim, ['--force', '--stdout', input.path], { maxBuffer: 1e9 });
  return undefined;
}

const rgba = async (bytes) => {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
};

const rows = {};
const add = async (format, method, input, output) => {
  const key = `${format}|${method}`;
  rows[key] ??= { format, method, ratios: [], ssims: [], refused: 0 };
  if (!output) return void (rows[key].refused += 1);
  rows[key].ratios.push(output.length / input.bytes.length);
  rows[key].ssims.push(ssim(await rgba(input.bytes), await rgba(output), { ssim: 'weber' }).mssim);
};

for (const input of inputs) {
  const name = input.format.toUpperCase();
  await add(name, 'Refract Compress (defaults)', input, await viaRefract(input));
  await add(name, 'sharp, same format, defaults', input, await viaSharp(input));
  const fromCli = viaCli(input);
  if (fromCli)
    await add(
      name,
      input.format === 'png' ? 'pngquant (Debian)' : 'jpegoptim (Debian)',
      input,
      fromCli,
    );
}
await refract.stop();
rmSync(work, { recursive: true, force: true });

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const table = Object.values(rows)
  .map((r) =>
    r.ratios.length
      ? `| ${r.format} | ${r.method} | ${(mean(r.ratios) * 100).toFixed(1)} % | ${mean(r.ssims).toFixed(4)} |${r.refused ? ` ${r.refused} refused as already compact |` : ' |'}`
      : `| ${r.format} | ${r.method} | — | — | all ${r.refused} refused as already compact |`,
  )
  .join('\n');

lib.writeResults(
  'compression',
  `# Compression: size and perceptual quality at the defaults

${lib.measuredOn()}

${PHOTOS} generated photos of ${WIDTH}×${HEIGHT}, each saved as JPEG (quality 90), PNG (lossless)
and WebP (quality 90). Size is the output's bytes as a share of the input's (lower is smaller);
SSIM compares the output's pixels with the input's (ssim.js, Weber variant; 1 = identical,
above about 0.95 differences are hard to see). Means over the photos.

| input | method | size | SSIM | |
|---|---|---|---|---|
${table}
${pngquant ? '' : '\npngquant not installed: its rows are missing (`apt-get install pngquant`).'}${jpegoptim ? '' : '\njpegoptim not installed: its rows are missing (`apt-get install jpegoptim`).'}
sharp's defaults re-encode in the same format without palette or mozjpeg: the baseline a
plain re-save gives. jpegoptim's default is lossless (Huffman tables only), so its SSIM is 1.
`,
);
