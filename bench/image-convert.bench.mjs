// Image convert throughput: PNG photos → WebP through the real server (HTTP, auth, metering,
// multipart, temp files) against the same conversions in-process with sharp, 4 in flight each.
import sharp from 'sharp';
import { startRefractAsAdmin, writeResults } from './lib.mjs';

const PHOTOS = 12;
const CONCURRENCY = 4;
const SIZE = { width: 3000, height: 2000 }; // 6 MP; the 12 MP set takes minutes on 2 cores

const photos = await Promise.all(
  Array.from({ length: PHOTOS }, (_, i) =>
    sharp({
      create: {
        ...SIZE,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 100 + i, sigma: 30 },
      },
    })
      .png({ compressionLevel: 1 })
      .toBuffer(),
  ),
);

async function inFlight(task) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < photos.length) await task(photos[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

const direct = () => inFlight((png) => sharp(png).autoOrient().webp().toBuffer());

// An admin is unlimited, so the quota does not stop the run; the work per request is the same.
const refract = await startRefractAsAdmin(3109);
const { base, token } = refract;

const viaApi = () =>
  inFlight(async (png) => {
    const form = new FormData();
    form.append('format', 'webp');
    form.append('image', new Blob([png]), 'photo.png');
    const res = await fetch(`${base}/api/convert`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`convert answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  });

// Alternate rounds so both sides see the same machine noise.
const rounds = { direct: [], api: [] };
for (let i = 0; i < 2; i += 1) {
  rounds.direct.push(await direct());
  rounds.api.push(await viaApi());
}
await refract.stop();

const best = (xs) => Math.min(...xs);
const rate = (s) => PHOTOS / s;
const ratio = rate(best(rounds.api)) / rate(best(rounds.direct));
writeResults(
  'image-convert',
  `# Image convert throughput: PNG → WebP

${new Date().toISOString().slice(0, 10)}, ${PHOTOS} generated photos of ${(SIZE.width * SIZE.height) / 1e6} MP, ${CONCURRENCY} in flight, best of 2 alternating rounds.

| path | images/s | ratio to sharp |
|---|---|---|
| sharp in-process | ${rate(best(rounds.direct)).toFixed(2)} | 1.00 |
| Refract API (HTTP, auth, metering, multipart, temp files) | ${rate(best(rounds.api)).toFixed(2)} | ${ratio.toFixed(2)} |

Goal (issue 12): at least 0.85×. ${ratio >= 0.85 ? 'Met.' : 'Not met.'} The ImageMagick CLI comparison is not run: no system ImageMagick is installed here.
`,
);
