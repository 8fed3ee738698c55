import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { seriousViolations } from './axe';
import ar from '../src/locales/ar.json' with { type: 'json' };
import en from '../src/locales/en.json' with { type: 'json' };
import { chooseArabic, signUp, uniqueEmail } from './helpers';

const WORDS = { en, ar } as const;

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** Four people in front of a window and a wall, at 960×769: it ships with face-api (its demo). */
const people = () =>
  sharp(
    readFileSync(
      join(
        dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
        'demo/sample6.jpg',
      ),
    ),
  )
    .resize(960)
    .jpeg()
    .toBuffer();

async function choose(page: Page, buffer: Buffer, name = 'party.jpg') {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'image/jpeg', buffer });
}

test('remove the background of a photo of people and download a transparent PNG', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'remove background 1');
  await page.goto('/remove-background');
  await choose(page, await people());
  await page.getByRole('button', { name: 'Remove background' }).click();
  // The first use loads the model.
  await expect(page.getByRole('status')).toContainText('Your file is ready', { timeout: 30_000 });

  // Before and after, the result over a checkerboard; the slider moves the line by keyboard.
  const compare = page.getByTestId('before-after');
  await expect(
    compare.getByRole('img', { name: 'The image without its background' }),
  ).toBeVisible();
  const slider = compare.getByRole('slider', { name: 'Move the line between before and after' });
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');

  const link = page.getByRole('link', { name: 'Download party-no-background.png' });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = readFileSync((await download.path())!);
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  expect(info).toMatchObject({ width: 960, height: 769, channels: 4 });
  const alpha = (fx: number, fy: number) =>
    data[
      (Math.round(fy * (info.height - 1)) * info.width + Math.round(fx * (info.width - 1))) * 4 + 3
    ];
  expect(alpha(0.02, 0.05)).toBeLessThan(25); // the window
  expect(alpha(0.2, 0.4)).toBeGreaterThan(230); // a face

  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-optimize-remove-background')).toHaveText('1 of 3 used');
});

test('puts the people on a chosen colour as WebP', async ({ strictPage: page }) => {
  await signUp(page, uniqueEmail(), 'remove background 2');
  await page.goto('/remove-background');
  await choose(page, await people());
  await page.getByText('WebP (lossless)', { exact: true }).click();
  await page.getByText('Colour', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Background colour' }).fill('#2f9e44');
  await page.getByRole('button', { name: 'Remove background' }).click();
  const link = page.getByRole('link', { name: 'Download party-no-background.webp' });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = readFileSync((await download.path())!);
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  expect((await sharp(file).metadata()).format).toBe('webp');
  // The window at the top left is now the chosen green.
  const [r, g, b] = data.subarray(
    info.width * 20 * info.channels,
    info.width * 20 * info.channels + 3,
  );
  expect(g!).toBeGreaterThan(130);
  expect(r! + b!).toBeLessThan(180);
});

test('a file that is not an image gets a clear message and is not charged', async ({
  strictPage: page,
  expectedHttpErrors,
}) => {
  expectedHttpErrors.push('415 /api/remove-background');
  await signUp(page, uniqueEmail(), 'remove background 3');
  await page.goto('/remove-background');
  await choose(page, Buffer.from('not an image at all'), 'notes.jpg');
  await page.getByRole('button', { name: 'Remove background' }).click();
  await expect(page.getByRole('alert')).toContainText('This type of file is not supported.');
  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-optimize-remove-background')).toHaveText('0 of 3 used');
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`remove background as WebP on a colour, the page fitting at ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      await signUp(page, uniqueEmail(), 'remove background layout');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/remove-background');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await choose(page, await people());
      // The format and background choices, driven in the page's language.
      const words = WORDS[language as keyof typeof WORDS].removeBackground;
      await page.getByText(words.webpLossless, { exact: true }).click();
      await page.getByText(words.colour, { exact: true }).click();
      await page.getByRole('textbox', { name: words.colourLabel }).fill('#2f9e44');
      await page.locator('button[type="submit"]').click();
      await expect(page.locator('a[download="party-no-background.webp"]')).toBeVisible({
        timeout: 30_000,
      });
      await expect(page.getByTestId('before-after')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({
        path: `${SCREENSHOTS}/remove-background-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
