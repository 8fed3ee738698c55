import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

function generate(name: string, args: string[]): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-media-')), name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, out]);
  return readFileSync(out);
}

test('audio options: 96 kbps mono, the first 3 s, sized before running', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'options password 1');
  await page.goto('/convertaudio');
  const wav = generate('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=6']);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: wav });
  await page.getByRole('button', { name: 'More options' }).click();
  await expect(page.getByText('Length: 6.00 s')).toBeVisible();
  await page.getByText('Constant', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Bitrate' }).click();
  await page.getByRole('option', { name: '96 kbps' }).click();
  await page.getByRole('textbox', { name: 'Channels' }).click();
  await page.getByRole('option', { name: 'Mono' }).click();
  await page.getByRole('textbox', { name: 'End (seconds)' }).fill('3');
  // 3 s at 96 kbps: 36 000 bytes.
  await expect(page.getByText('Expected size: about 36 KB')).toBeVisible();

  await page.getByRole('button', { name: 'Convert to MP3' }).click();
  const link = page.getByRole('link', { name: 'Download tone.mp3' });
  await expect(link).toBeVisible({ timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const probed = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=channels,bit_rate:format=duration'],
    ...['-of', 'json', (await download.path())!],
  ]);
  const json = JSON.parse(probed.toString()) as {
    streams: { channels: number; bit_rate: string }[];
    format: { duration: string };
  };
  expect(json.streams[0]!.channels).toBe(1);
  expect(Math.abs(Number(json.streams[0]!.bit_rate) - 96_000)).toBeLessThan(9_600);
  expect(Math.abs(Number(json.format.duration) - 3)).toBeLessThan(0.05);
});

test('audio and video options fit at 1280 and 375 px, in English and Arabic', async ({ page }) => {
  test.setTimeout(120_000); // Eight pages, each with a file read.
  await signUp(page, uniqueEmail(), 'options password 2');
  mkdirSync(SCREENSHOTS, { recursive: true });
  const clip = generate('clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ]);
  const tone = generate('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3']);
  for (const language of ['en', 'ar']) {
    const more = language === 'ar' ? 'خيارات إضافية' : 'More options';
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 1400 });
      if (language === 'ar' && width === 1280) await chooseArabic(page);
      await page.goto('/convertvideo');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip });
      await page.getByRole('button', { name: more }).click();
      await expect(
        page.getByText(language === 'ar' ? 'المدة: 2.00 ث' : 'Length: 2.00 s'),
      ).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/video-options-${language}-${width}.png`,
        fullPage: true,
      });
      await page.goto('/convertaudio');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: tone });
      await page.getByRole('button', { name: more }).click();
      await expect(page.getByRole('status').filter({ hasText: /\d/ }).first()).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/audio-options-${language}-${width}.png`,
        fullPage: true,
      });
    }
  }
});
