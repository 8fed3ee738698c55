// Upscale: does the super-resolution model beat a lanczos resize, and at what speed? Each of the
// 12 photographs of bench/fixtures/upscale (256×256) is shrunk by 2 and by 4 with area
// averaging, then enlarged back by each model (UpscalerJS ESRGAN slim and medium, the tool's
// own tiled code) and by sharp's lanczos3; PSNR and SSIM on the luma against the original.
// Time: seconds per input megapixel, per image (median and range of the 12).
// Runs the built code in-process (apps/server/dist): `npm run build` first.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { areaDownscale, luma, psnr, ssim } from './image-quality.mjs';
import * as lib from './lib.mjs';

const { superResolve, closeSuperResolution } = await import(
  `${lib.root}apps/server/dist/media/upscale/super-resolution.js`
);

const dir = join(lib.root, 'bench/fixtures/upscale');
const files = readdirSync(dir).filter((f) => f.endsWith('.jpg'));
const METHODS = ['lanczos', 'slim', 'medium'];
const GOAL = { 2: 0.7, 4: 1.0 };
const WORST = 0.2;

async function enlarge(method, small, scale) {
  if (method === 'lanczos')
    return sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } })
      .resize(small.width * scale, small.height * scale, { kernel: 'lanczos3' })
      .raw()
      .toBuffer();
  return superResolve(small.data, small.width, small.height, scale, { variant: method });
}

// Each model loads once; that first call is not counted.
for (const variant of ['slim', 'medium'])
  for (const scale of [2, 4])
    await superResolve(Buffer.alloc(16 * 16 * 3), 16, 16, scale, { variant });

const rows = [];
for (const file of files) {
  const { data, info } = await sharp(join(dir, file)).raw().toBuffer({ resolveWithObject: true });
  const reference = luma(data, info.channels);
  for (const scale of [2, 4]) {
    const small = areaDownscale(data, info.width, info.height, info.channels, scale);
    const row = { file, scale };
    for (const method of METHODS) {
      const started = performance.now();
      const out = await enlarge(method, small, scale);
      const secondsPerMp =
        (performance.now() - started) / 1000 / ((small.width * small.height) / 1e6);
      const y = luma(out, 3);
      row[method] = {
        psnr: psnr(reference, y, info.width, info.height, scale),
        ssim: ssim(reference, y, info.width, info.height, scale),
        secondsPerMp,
      };
    }
    rows.push(row);
    console.log(file, scale, METHODS.map((m) => `${m} ${row[m].psnr.toFixed(2)}`).join(' '));
  }
}
await closeSuperResolution();

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f2 = (x) => x.toFixed(2);
let markdown = `# Upscale: super-resolution against lanczos\n\n${lib.measuredOn()}\n\n`;
markdown += `12 photographs (bench/fixtures/upscale: 256×256 crops of Debian's tuxpaint-data, GPL-2+), shrunk by area averaging and enlarged back; PSNR (dB) and SSIM on the luma (BT.601), ${'`scale`'} pixels shaved at each border. Goal: the model's mean PSNR at least ${GOAL[2]} dB above lanczos at ×2 and ${GOAL[4]} dB at ×4, no image worse than lanczos by more than ${WORST} dB.\n\n`;
for (const scale of [2, 4]) {
  const set = rows.filter((r) => r.scale === scale);
  markdown += `## ×${scale}\n\n| image | ${METHODS.map((m) => `${m} PSNR / SSIM`).join(' | ')} |\n|---|${METHODS.map(() => '---').join('|')}|\n`;
  for (const r of set)
    markdown += `| ${r.file} | ${METHODS.map((m) => `${f2(r[m].psnr)} / ${r[m].ssim.toFixed(3)}`).join(' | ')} |\n`;
  markdown += `| **mean** | ${METHODS.map((m) => `${f2(mean(set.map((r) => r[m].psnr)))} / ${mean(set.map((r) => r[m].ssim)).toFixed(3)}`).join(' | ')} |\n\n`;
  markdown += `| method | mean gain over lanczos (dB) | worst image against lanczos (dB) | goal | seconds per input MP, median (range) |\n|---|---|---|---|---|\n`;
  for (const m of METHODS) {
    const gains = set.map((r) => r[m].psnr - r.lanczos.psnr);
    const times = set.map((r) => r[m].secondsPerMp);
    const met = mean(gains) >= GOAL[scale] && Math.min(...gains) >= -WORST;
    markdown += `| ${m} | ${f2(mean(gains))} | ${f2(Math.min(...gains))} | ${m === 'lanczos' ? '—' : lib.verdict(met)} | ${f2(median(times))} (${f2(Math.min(...times))}–${f2(Math.max(...times))}) |\n`;
  }
  markdown += '\n';
}
lib.writeResults('upscale', markdown);
