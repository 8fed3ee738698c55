// Upscale: does the super-resolution model beat a lanczos resize, and at what speed?
// Quality: each of the 12 photographs of bench/fixtures/upscale (256×256) is shrunk by 2 and by 4
// with area averaging, then enlarged back by each UpscalerJS ESRGAN model (slim, medium, thick;
// the tool's own tiled code on the native runtime) and by sharp's lanczos3; PSNR and SSIM on the
// luma against the original. The smallest model that meets the goal at each factor is the tool's.
// Speed, side by side in one run: the same model (slim) on the native runtime (onnxruntime-node)
// and on TF.js WebAssembly, the path the tool ran on before, in-process on the built code; then
// the tool itself through the app as a user starts it (`npm start`), a photo at ×2 and at ×4.
// Seconds per input megapixel, median and spread of RUNS. `npm run build` first.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { areaDownscale, luma, psnr, ssim } from './image-quality.mjs';
import * as lib from './lib.mjs';

const { superResolve, closeSuperResolution } = await import(
  `${lib.root}apps/server/dist/media/upscale/super-resolution.js`
);

const RUNS = 3;
const dir = join(lib.root, 'bench/fixtures/upscale');
const files = readdirSync(dir).filter((f) => f.endsWith('.jpg'));
const MODELS = ['slim', 'medium', 'thick'];
const METHODS = ['lanczos', ...MODELS];
const GOAL = { 2: 0.7, 4: 1.0 };
const WORST = 0.2;
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const rgbOf = (data, width, height) => ({ data, width, height });

async function enlarge(method, small, scale, runtime = 'onnx') {
  if (method === 'lanczos')
    return sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } })
      .resize(small.width * scale, small.height * scale, { kernel: 'lanczos3' })
      .raw()
      .toBuffer();
  return superResolve(small.data, small.width, small.height, scale, { variant: method, runtime });
}

// ---- Quality ----
const rows = [];
for (const file of files) {
  const { data, info } = await sharp(join(dir, file)).raw().toBuffer({ resolveWithObject: true });
  const reference = luma(data, info.channels);
  for (const scale of [2, 4]) {
    const small = areaDownscale(data, info.width, info.height, info.channels, scale);
    const row = { file, scale };
    for (const method of METHODS) {
      const y = luma(await enlarge(method, small, scale), 3);
      row[method] = {
        psnr: psnr(reference, y, info.width, info.height, scale),
        ssim: ssim(reference, y, info.width, info.height, scale),
      };
    }
    rows.push(row);
    console.log(file, scale, METHODS.map((m) => `${m} ${f2(row[m].psnr)}`).join(' '));
  }
}

// ---- Speed: the runtimes on the same model ----
/** A photo of `megapixels` made of the fixtures side by side (real content in every tile). */
async function photo(width, height) {
  const tiles = await Promise.all(files.map((f) => sharp(join(dir, f)).toBuffer()));
  const composite = [];
  for (let top = 0, i = 0; top < height; top += 256)
    for (let left = 0; left < width; left += 256, i += 1)
      composite.push({ input: tiles[i % tiles.length], left, top });
  const canvas = sharp({ create: { width, height, channels: 3, background: '#000' } });
  return sharp(await canvas.composite(composite).png().toBuffer())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}
const perMp = (seconds, width, height) => seconds / ((width * height) / 1e6);

const runtimeRows = [];
{
  // 512×384: 0.2 MP, a minute or so on the WebAssembly path.
  const { data, info } = await photo(512, 384);
  const input = rgbOf(data, info.width, info.height);
  for (const scale of [2, 4]) {
    const times = { onnx: [], tfjs: [] };
    // Each runtime's model loads once first, not counted.
    for (const runtime of ['onnx', 'tfjs'])
      await superResolve(Buffer.alloc(16 * 16 * 3), 16, 16, scale, { variant: 'slim', runtime });
    for (let i = 0; i < RUNS; i += 1)
      for (const runtime of ['onnx', 'tfjs']) {
        const s = await lib.seconds(() => enlarge('slim', input, scale, runtime));
        times[runtime].push(perMp(s, input.width, input.height));
        console.log(`slim ×${scale} ${runtime}: ${f1(times[runtime].at(-1))} s/MP`);
      }
    runtimeRows.push({ scale, ...times });
  }
}
await closeSuperResolution();

// ---- Speed: the tool through the app ----
const work = mkdtempSync(join(tmpdir(), 'refract-upscale-bench-'));
const appRows = [];
const refract = await lib.startRefractAsAdmin(lib.port(7));
const { kb, sampled } = lib.memoryOf(refract.pid);
const memory = { idleMb: kb('VmRSS') / 1024 };
try {
  for (const [scale, width, height] of [
    [2, 1280, 1024],
    [4, 512, 384],
  ]) {
    const { data, info } = await photo(width, height);
    const path = join(work, `photo-${scale}.jpg`);
    writeFileSync(path, await sharp(data, { raw: info }).jpeg({ quality: 92 }).toBuffer());
    const post = () =>
      lib.postFile(`${refract.base}/api/upscale`, refract.token, 'image', path, {
        scale: String(scale),
      });
    await post(); // the model loads
    const times = [];
    const samples = await sampled(async () => {
      for (let i = 0; i < RUNS; i += 1) {
        times.push(perMp(await lib.seconds(post), width, height));
        console.log(`app ×${scale}: ${f1(times.at(-1))} s/MP`);
      }
    });
    appRows.push({ scale, width, height, times, peakMb: Math.max(...samples) / 1024 });
  }
  // The largest input ×2 takes, once, for its memory (16 MP in, 64 MP out).
  {
    const { data, info } = await photo(4608, 3456);
    const path = join(work, 'photo-16mp.jpg');
    writeFileSync(path, await sharp(data, { raw: info }).jpeg({ quality: 85 }).toBuffer());
    let seconds = 0;
    const samples = await sampled(async () => {
      seconds = await lib.seconds(() =>
        lib.postFile(`${refract.base}/api/upscale`, refract.token, 'image', path, { scale: '2' }),
      );
    });
    memory.largest = { seconds, peakMb: Math.max(...samples) / 1024 };
    console.log(`16 MP ×2: ${f1(seconds)} s, peak ${f1(memory.largest.peakMb)} MB`);
  }
  await lib.sleep(60_000);
  memory.afterMb = kb('VmRSS') / 1024;
} finally {
  await refract.stop();
  rmSync(work, { recursive: true, force: true });
}

// ---- Results ----
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
let markdown = `# Upscale: super-resolution against lanczos, native runtime against WebAssembly\n\n${lib.measuredOn()}\n\n`;
markdown += `## Quality\n\n12 photographs (bench/fixtures/upscale: 256×256 crops of Debian's tuxpaint-data, GPL-2+), shrunk by area averaging and enlarged back; PSNR (dB) and SSIM on the luma (BT.601), ${'`scale`'} pixels shaved at each border. Goal: the model's mean PSNR at least ${GOAL[2]} dB above lanczos at ×2 and ${GOAL[4]} dB at ×4, no image worse than lanczos by more than ${WORST} dB. All models on the native runtime, through the tool's own tiles.\n\n`;
for (const scale of [2, 4]) {
  const set = rows.filter((r) => r.scale === scale);
  markdown += `### ×${scale}\n\n| image | ${METHODS.map((m) => `${m} PSNR / SSIM`).join(' | ')} |\n|---|${METHODS.map(() => '---').join('|')}|\n`;
  for (const r of set)
    markdown += `| ${r.file} | ${METHODS.map((m) => `${f2(r[m].psnr)} / ${r[m].ssim.toFixed(3)}`).join(' | ')} |\n`;
  markdown += `| **mean** | ${METHODS.map((m) => `${f2(mean(set.map((r) => r[m].psnr)))} / ${mean(set.map((r) => r[m].ssim)).toFixed(3)}`).join(' | ')} |\n\n`;
  markdown += `| model | mean gain over lanczos (dB) | worst image against lanczos (dB) | goal |\n|---|---|---|---|\n`;
  for (const m of MODELS) {
    const gains = set.map((r) => r[m].psnr - r.lanczos.psnr);
    const met = mean(gains) >= GOAL[scale] && Math.min(...gains) >= -WORST;
    markdown += `| ${m} | ${f2(mean(gains))} | ${f2(Math.min(...gains))} | ${lib.verdict(met)} |\n`;
  }
  markdown += '\n';
}
markdown += `## Speed: the same model on each runtime\n\nThe slim model on a 512×384 photo (0.2 MP, the fixtures side by side), in-process, the runtimes in turn; seconds per input megapixel, median (range) of ${RUNS}. Goal: the native runtime at least 5× faster.\n\n| factor | native (onnxruntime-node) | WebAssembly (TF.js) | speed-up, median | goal |\n|---|---|---|---|---|\n`;
for (const r of runtimeRows) {
  const ratio = lib.median(r.tfjs) / lib.median(r.onnx);
  markdown += `| ×${r.scale} | ${lib.spread(r.onnx, 1)} | ${lib.spread(r.tfjs, 1)} | ${f1(ratio)}× | ${lib.verdict(ratio >= 5)} |\n`;
}
markdown += `\n## Speed: the tool through the app\n\n\`npm start\` at its defaults, one model upscale at a time (POST /api/upscale, waiting for the file: upload, decode, the model by tiles, encode, download); seconds per input megapixel, median (range) of ${RUNS}. Goal at ×2: at most 8 s per input megapixel on 2 cores at rest.\n\n| factor (model) | photo | seconds per input MP | goal |\n|---|---|---|---|\n`;
for (const r of appRows) {
  const m = lib.median(r.times);
  markdown += `| ×${r.scale} (${r.scale === 2 ? 'slim' : 'thick'}) | ${r.width}×${r.height} JPEG | ${lib.spread(r.times, 1)} | ${r.scale === 2 ? lib.verdict(m <= 8) : '—'} |\n`;
}
markdown += `\n## Memory of the app (RSS)\n\n| idle, after start | peak, ×2 runs above | peak, ×4 runs above | peak, one 16 MP photo ×2 (${f1(memory.largest.seconds)} s) | 60 s after the last | goal: back within 100 MB of idle |\n|---|---|---|---|---|---|\n`;
markdown += `| ${f1(memory.idleMb)} MB | ${f1(appRows[0].peakMb)} MB | ${f1(appRows[1].peakMb)} MB | ${f1(memory.largest.peakMb)} MB | ${f1(memory.afterMb)} MB | ${lib.verdict(memory.afterMb - memory.idleMb <= 100)} |\n`;
lib.writeResults('upscale', markdown);
