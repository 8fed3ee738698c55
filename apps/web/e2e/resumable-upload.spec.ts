import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { signUp, uniqueEmail } from './helpers';
import { tcpProxy } from '../../server/src/test/tcp-proxy';

/** A real video of about 8 MB from ffmpeg's test sources, with noise so it does not shrink. */
function noisyVideo(): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-resumable-')), 'trip.mp4');
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=8'],
    ...['-vf', 'noise=alls=30:allf=t', '-c:v', 'mpeg4', '-q:v', '2'],
    out,
  ]);
  return readFileSync(out);
}

test('a video upload cut by the network resumes by itself from where the server has it, and finishes', async ({
  browser,
  baseURL,
}) => {
  // The page reaches the app through a line of 2 MB/s that the test can cut.
  const app = { host: '127.0.0.1', port: Number(new URL(baseURL!).port) };
  const network = await tcpProxy(app, 0, { bytesPerSecond: 2e6 });
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${network.port}` });
  const page = await context.newPage();
  try {
    await signUp(page, uniqueEmail(), 'resume password 1');
    await page.goto('/convertvideo');
    const video = noisyVideo();
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
    });

    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'trip.mp4', mimeType: 'video/mp4', buffer: video });
    await page.getByRole('button', { name: /^Convert to/ }).click();
    await expect(page.getByText(/Uploading .* of .* \((2\d|3\d|4\d)%\)/)).toBeVisible({
      timeout: 60_000,
    });
    await network.refuse();
    await expect(page.getByText(/Connection lost at \d+%/)).toBeVisible({ timeout: 60_000 });
    await network.restore();

    await expect(page.getByRole('link', { name: /^Download trip/ })).toBeVisible({
      timeout: 120_000,
    });
    // The first PATCH began at 0; the one after the cut where the server had got to.
    expect(offsets[0]).toBe(0);
    expect(offsets.at(-1)).toBeGreaterThan(video.length / 10);
    await page.goto('/dashboard');
    await expect(page.getByTestId('usage-convert-video')).toHaveText('1 of 3 used');
  } finally {
    await context.close();
    await network.close();
  }
});
