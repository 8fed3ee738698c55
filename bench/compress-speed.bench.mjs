// Compress speed on the two files once found slow: a photo PNG of about 9 MB (45 s at
// palette effort 10) and a 2.6 MP AVIF (29 s). The whole tool (decode, encode at its default
// quality 80, checks) against sharp's own default encode of the same image to the same format
// (png({ palette: true }) and avif()), side by side in one run, 3 rounds: median and range.
// Goal: the tool within 2× of sharp's default. Runs the built tool in-process: `npm run build`.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const { compressTool } = await import(`${lib.root}apps/server/dist/tools/compress.js`);
const { PNG_PALETTE_EFFORT, AVIF_EFFORT } = await import(
  `${lib.root}apps/server/dist/media/image/compress-encode.js`
);

const ROUNDS = 3;
const work = mkdtempSync(join(tmpdir(), 'refract-bench-compress-speed-'));
const png = join(work, 'photo.png');
writeFileSync(
  png,
  await sharp(readFileSync(await photo(0, 3000, 2000)))
    .png()
    .toBuffer(),
);
const avif = join(work, 'photo.avif');
writeFileSync(
  avif,
  await sharp(readFileSync(await photo(1, 1980, 1320)))
    .avif({ quality: 80 })
    .toBuffer(),
);

const CASES = [
  {
    label: `PNG photo, 6 MP, ${(statSync(png).size / 1e6).toFixed(1)} MB`,
    input: png,
    sharpDefault: (s) => s.png({ palette: true }),
    ext: 'png',
  },
  {
    label: `AVIF photo, 2.6 MP, ${(statSync(avif).size / 1e6).toFixed(1)} MB`,
    input: avif,
    sharpDefault: (s) => s.avif(),
    ext: 'avif',
  },
];

const tool = (input) =>
  compressTool.run({
    input,
    inputName: 'photo',
    inputBytes: statSync(input).size,
    fields: { quality: 80, keepFormat: 'true', allowResize: 'false' },
    workDir: work,
    signal: new AbortController().signal,
    onProgress() {},
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
let markdown = `# Compress speed: the files once found slow\n\n${lib.measuredOn()}\n\n`;
markdown += `The whole Compress tool at its default quality 80 (PNG: palette, effort ${PNG_PALETTE_EFFORT}; AVIF: effort ${AVIF_EFFORT}) against sharp's default encode of the same file to the same format, ${ROUNDS} rounds alternating, median (range) in seconds. Goal: at most 2× sharp's default.\n\n`;
markdown +=
  '| input | Refract Compress | sharp default | ratio | size: Refract / sharp default | goal |\n|---|---|---|---|---|---|\n';
for (const c of CASES) {
  const [ours, theirs] = [[], []];
  let sizes;
  for (let round = 0; round < ROUNDS; round += 1) {
    let result;
    ours.push(await lib.seconds(async () => (result = await tool(c.input))));
    const out = join(work, `default.${c.ext}`);
    theirs.push(await lib.seconds(() => c.sharpDefault(sharp(c.input)).toFile(out)));
    sizes = [statSync(result.path).size, statSync(out).size];
  }
  const ratio = median(ours) / median(theirs);
  markdown += `| ${c.label} | ${median(ours).toFixed(1)} (${range(ours)}) | ${median(theirs).toFixed(1)} (${range(theirs)}) | ${ratio.toFixed(2)}× | ${(sizes[0] / 1e3).toFixed(0)} KB / ${(sizes[1] / 1e3).toFixed(0)} KB | ${lib.verdict(ratio <= 2)} |\n`;
  console.log(c.label, ours, theirs);
}
rmSync(work, { recursive: true, force: true });
lib.writeResults('compress-speed', markdown);
