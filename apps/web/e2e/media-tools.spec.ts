import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, overflowsHorizontally, test } from './fixtures';
import { signUp, uniqueEmail, chooseArabic } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A real file from ffmpeg's test sources. */
function generate(name: string, args: string[]): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-media-')), name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, out]);
  return readFileSync(out);
}

test('convert a WAV to MP3, watching both progress bars reach 100', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'audio password 1');
  await page.goto('/convertaudio');
  // A minute of sound: long enough for progress to be reported along the way.
  const wav = generate('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=60']);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: wav });
  await expect(page.getByLabel('Preview of the chosen audio')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Convert to' })).toHaveValue('MP3');

  await page.getByRole('button', { name: 'Convert to MP3' }).click();
  const processing = page.getByRole('progressbar', { name: /Processing/ });
  await expect(processing).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: /Uploading/ })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  const link = page.getByRole('link', { name: 'Download tone.mp3' });
  await expect(link).toBeVisible();
  await expect(page.getByText(/Before: .* · After: /)).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const codec = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0'],
    (await download.path())!,
  ]);
  expect(codec.toString().trim()).toBe('mp3');

  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-convert-audio')).toHaveText('1 of 3 used');
});

test("the audio converter takes a video's sound track, as the API does", async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'audio password 2');
  await page.goto('/convertaudio');
  const clip = generate('clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=2'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-shortest'],
  ]);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip });
  await page.getByRole('button', { name: 'Convert to MP3' }).click();
  const link = page.getByRole('link', { name: 'Download clip.mp3' });
  await expect(link).toBeVisible({ timeout: 60_000 });
});

test('cancel a video compression: it stops and costs nothing', async ({ page }) => {
  await signUp(page, uniqueEmail(), 'video password 1');
  await page.goto('/compress-video');
  const video = generate('clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30:duration=40'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '10'],
  ]);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: video });
  await expect(page.getByText('Quality to keep: 40%')).toBeVisible();
  await page.getByRole('button', { name: 'Compress' }).click();
  await expect(page.getByText(/Processing… \d+%/)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Cancelled. Nothing was charged.')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-compress-video')).toHaveText('0 of 3 used');
});

test('a text file named .mp3 gets the translated error', async ({ page }) => {
  await signUp(page, uniqueEmail(), 'text password 1');
  await page.goto('/compress-audio');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'notes.mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.from('these are words, not sound'),
  });
  await page.getByRole('button', { name: 'Compress' }).click();
  await expect(page.getByRole('alert')).toHaveText('This type of file is not supported.');
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`audio and video pages fit at ${width}px in ${language}`, async ({ strictPage: page }) => {
      await signUp(page, uniqueEmail(), 'layout password 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') {
        // Signed in, the account's language wins: choose it the way a user does.
        await chooseArabic(page);
      }
      mkdirSync(SCREENSHOTS, { recursive: true });

      await page.goto('/convertvideo');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'clip.mp4',
        mimeType: 'video/mp4',
        buffer: generate('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:duration=2']),
      });
      await expect(page.locator('video')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/convertvideo-${language}-${width}.png`,
        fullPage: true,
      });

      await page.goto('/compress-audio');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'tone.wav',
        mimeType: 'audio/wav',
        buffer: generate('tone.wav', ['-f', 'lavfi', '-i', 'sine=duration=3']),
      });
      await page.locator('button[type="submit"]').click();
      await expect(page.locator('a[download="tone-compressed.mp3"]')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/compress-audio-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
