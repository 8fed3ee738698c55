import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { grainyJpeg, zipNames } from './batch-files';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

const photo = (name: string, seed: number) =>
  grainyJpeg(name, { width: 300 + seed, height: 200, mean: 128 });

const damaged = { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a jpeg') };

test('a batch cut to the uses left: 3 of 4 run, a damaged one fails alone, one zip', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'batch password 1');
  await page.goto('/compress');
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      await photo('IMG_1.jpg', 1),
      damaged,
      await photo('IMG_1.jpg', 2),
      await photo('last.jpg', 3),
    ]);
  // Basic has 3 compressions a month: the page says so before anything is sent.
  await expect(page.getByText('This batch needs 4 uses; you have 3 left.')).toBeVisible();
  await expect(page.getByText('Your uses left cover only the first 3 files.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade for more' })).toBeVisible();
  await page.getByRole('button', { name: 'Run the first 3 only' }).click();

  // The list is in name order: broken.jpg, IMG_1.jpg, IMG_1.jpg, last.jpg.
  const rows = page.getByTestId('batch-row');
  await expect(page.getByText('2 done, 1 failed, of 3')).toBeVisible({ timeout: 30_000 });
  await expect(rows.nth(0)).toHaveAttribute('data-status', 'failed');
  await expect(rows.nth(0)).toContainText('This type of file is not supported.');
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'done');
  await expect(rows.nth(2)).toHaveAttribute('data-status', 'done');
  await expect(rows.nth(3)).toHaveAttribute('data-status', 'skipped');
  await expect(rows.nth(1)).toContainText('saved');

  const [one] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download IMG_1 (2).jpg' }).click(),
  ]);
  expect(one.suggestedFilename()).toBe('IMG_1 (2).jpg');
  expect((await sharp(readFileSync((await one.path())!)).metadata()).format).toBe('jpeg');

  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  expect(await zipNames((await zip.path())!)).toEqual(['IMG_1.jpg', 'IMG_1 (2).jpg']);

  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-optimize-compress')).toHaveText('2 of 3 used');
});

test('files are listed and run in the order people number them: b1, b2, b3, then b10', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'batch order 1');
  await page.goto('/compress');
  // As a system's picker may give them: in code point order.
  const names = ['b1.jpg', 'b10.jpg', 'b2.jpg', 'b3.jpg'];
  await page
    .locator('input[type="file"]')
    .setInputFiles(await Promise.all(names.map((name, i) => photo(name, i))));
  const rows = page.getByTestId('batch-row');
  await expect(rows).toHaveCount(4);
  for (const [i, name] of ['b1.jpg', 'b2.jpg', 'b3.jpg', 'b10.jpg'].entries())
    await expect(rows.nth(i)).toContainText(name);
  // Basic has 3 compressions a month: the first 3 are b1, b2 and b3.
  await page.getByRole('button', { name: 'Run the first 3 only' }).click();
  await expect(page.getByText('3 done, 0 failed, of 3')).toBeVisible({ timeout: 30_000 });
  await expect(rows.nth(3)).toHaveAttribute('data-status', 'skipped');
  await expect(rows.nth(3)).toContainText('b10.jpg');
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`the batch list fits at ${width}px in ${language}`, async ({ strictPage: page }) => {
      await signUp(page, uniqueEmail(), 'batch layout 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/convert');
      await page
        .locator('input[type="file"]')
        .setInputFiles([
          await photo('holiday-photo-with-a-rather-long-name.jpg', 1),
          await photo('صورة.jpg', 2),
          damaged,
        ]);
      await expect(page.getByTestId('batch-row')).toHaveCount(3);
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/batch-before-${language}-${width}.png`,
        fullPage: true,
      });
      await page.getByTestId('batch-start').click();
      // In name order: broken.jpg first.
      await expect(page.getByTestId('batch-row').nth(0)).toHaveAttribute('data-status', 'failed', {
        timeout: 30_000,
      });
      await expect(page.getByTestId('batch-row').nth(1)).toHaveAttribute('data-status', 'done');
      await expect(page.getByTestId('batch-row').nth(2)).toHaveAttribute('data-status', 'done');
      await expect(page.locator('bdi', { hasText: 'صورة.jpg' })).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/batch-done-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
