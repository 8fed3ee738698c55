// Compress speed on the two files once found slow: a photo PNG of about 9 MB (45 s at palette
// effort 10) and a 2.6 MP AVIF (29 s). The whole tool (decode, encode at its default quality
// 80, checks) side by side in one run with sharp encoding the same file:
// - PNG: sharp's default png() (lossless deflate, what a plain "save as PNG" costs), and sharp's
//   palette encode with the very options the tool uses (pngPaletteOptions). The tool always
//   makes a palette, many times slower than the lossless png() and many times smaller, which
//   the page says; the goal is on the palette encode: the tool adds at most as much again.
// - AVIF: sharp's default avif().
// BENCH_ROUNDS rounds (default 3), alternating: median and range.
// Goal: the tool within 2× of sharp's palette encode (PNG) and of its default avif().
// Runs the built tool in-process: `npm run build && node bench/compress-speed.bench.mjs`.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { photo } from './fixtures.mjs';
import * as lib from './lib.mjs';

const { compressTool } = await import(`${lib.root}apps/server/dist/tools/compress.js`);
const { PNG_PALETTE_EFFORT, PNG_DEFLATE_LEVEL, AVIF_EFFORT, pngPaletteOptions } = await import(
  `${lib.root}apps/server/dist/media/image/compress-encode.js`
);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const QUALITY = 80; // The tool's default, and the page's starting value.
const work = mkdtempSync(join(tmpdir(), 'refract-bench-compress-speed-'));
// A noisy photo (gradients, texture, grain) saved losslessly: 3.4 MP, about 9.5 MB.
const png = join(work, 'photo.png');
writeFileSync(
  png,
  await sharp(readFileSync(await photo(0, 2250, 1500)))
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

const paletteOptions = pngPaletteOptions(QUALITY);
const CASES = [
  {
    label: `PNG photo, 3.4 MP, ${(statSync(png).size / 1e6).toFixed(1)} MB`,
    input: png,
    ext: 'png',
    against: [
      { name: "sharp's default `png()` (lossless)", encode: (s) => s.png(), goal: null },
      {
        name: `sharp's palette encode, the tool's options (\`${JSON.stringify(paletteOptions)}\`)`,
        encode: (s) => s.png(paletteOptions),
        goal: 2,
      },
    ],
  },
  {
    label: `AVIF photo, 2.6 MP, ${(statSync(avif).size / 1e6).toFixed(1)} MB`,
    input: avif,
    ext: 'avif',
    against: [{ name: "sharp's default `avif()`", encode: (s) => s.avif(), goal: 2 }],
  },
];

const tool = (input) =>
  compressTool.run({
    input,
    inputName: 'photo',
    inputBytes: statSync(input).size,
    fields: { quality: QUALITY, keepFormat: 'true', allowResize: 'false' },
    workDir: work,
    signal: new AbortController().signal,
    onProgress() {},
  });

const loadAtStart = lib.load();
const loads = [];
const rows = [];
for (const c of CASES) {
  const ours = [];
  const theirs = c.against.map(() => []);
  let sizes;
  for (let round = 0; round < ROUNDS; round += 1) {
    let result;
    ours.push(await lib.seconds(async () => (result = await tool(c.input))));
    sizes = [statSync(result.path).size];
    for (const [i, other] of c.against.entries()) {
      const out = join(work, `sharp-${i}.${c.ext}`);
      theirs[i].push(await lib.seconds(() => other.encode(sharp(c.input)).toFile(out)));
      sizes.push(statSync(out).size);
    }
    loads.push(Number(lib.load()));
    console.log(
      c.label,
      `round ${round + 1}`,
      ours.at(-1),
      theirs.map((t) => t.at(-1)),
    );
  }
  for (const [i, other] of c.against.entries()) {
    const ratio = lib.median(ours) / lib.median(theirs[i]);
    rows.push(
      `| ${i === 0 ? c.label : ''} | ${i === 0 ? lib.spread(ours, 2) : ''} | ${other.name} | ${lib.spread(theirs[i], 2)} | ${ratio.toFixed(2)}× | ${(sizes[0] / 1e3).toFixed(0)} KB / ${(sizes[i + 1] / 1e3).toFixed(0)} KB | ${other.goal === null ? '— (for scale)' : `≤ ${other.goal}×: ${lib.verdict(ratio <= other.goal)}`} |`,
    );
  }
}
rmSync(work, { recursive: true, force: true });

let markdown = `# Compress speed: the files once found slow\n\n${lib.measuredOn()} Load average ${loadAtStart} at the start; after each round ${loads.map((l) => l.toFixed(1)).join(', ')}.\n\n`;
markdown += `The whole Compress tool at its default quality ${QUALITY} against sharp encoding the same file, ${ROUNDS} rounds alternating, median (range) in seconds. For a PNG the tool always makes a palette (libimagequant: up to 256 colours, the fewest that reach the quality; dithered; effort ${PNG_PALETTE_EFFORT}, deflate level ${PNG_DEFLATE_LEVEL}), at quality 100 too: it is compared with sharp's palette encode with the same options (the goal) and, for scale, with sharp's default lossless \`png()\`, which is much faster and much larger. AVIF: effort ${AVIF_EFFORT}, against sharp's default \`avif()\`. Goal: at most 2× sharp's palette encode (PNG) and sharp's default \`avif()\`.\n\n`;
markdown +=
  '| input | Refract Compress | compared with | its time | ratio | size: Refract / it | goal |\n|---|---|---|---|---|---|---|\n';
markdown += `${rows.join('\n')}\n\nRerun: \`npm run build && node bench/compress-speed.bench.mjs\` (\`BENCH_ROUNDS\`, default 3).\n`;
lib.writeResults('compress-speed', markdown);
