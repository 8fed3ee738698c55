import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { pixelBlockSize } from '@refract/contracts';
import { expect, overflowsHorizontally, test } from './fixtures';
import { seriousViolations } from './axe';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** Photos of people that ship with the face model's package. */
const demoPhoto = (name: string) =>
  readFileSync(
    join(
      dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
      'demo',
      name,
    ),
  );

const WORDS = {
  en: {
    detectAll: 'Blur all faces',
    pixelate: 'Pixelate',
    box: 'Solid box',
    strength: 'Strength',
    add: 'Add blur area',
    submit: 'Blur and download',
  },
  ar: {
    detectAll: 'تمويه كل الوجوه',
    pixelate: 'بكسلة',
    box: 'مربع مصمت',
    strength: 'الشدة',
    add: 'إضافة منطقة تمويه',
    submit: 'التمويه والتنزيل',
  },
};

/**
 * The widths of the first runs of equal pixels along the middle row of the pixelated preview
 * of the first area: its blocks, in preview pixels.
 */
const previewRuns = (page: Page) =>
  page
    .getByTestId('blur-area-pixels')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const { width, height } = canvas;
      const row = canvas.getContext('2d')!.getImageData(0, Math.floor(height / 2), width, 1).data;
      const runs: number[] = [];
      let run = 1;
      for (let x = 1; x < width; x += 1) {
        const same = [0, 1, 2].every((c) => row[x * 4 + c] === row[(x - 1) * 4 + c]);
        if (same) {
          run += 1;
        } else {
          runs.push(run);
          run = 1;
        }
      }
      return runs;
    });

for (const width of [1280, 375]) {
  for (const language of ['en', 'ar'] as const) {
    test(`blur faces: pixelate, strength and "blur all faces" at ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      const words = WORDS[language];
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'blur styles password 1');
      await page.goto('/blur-face');
      if (language === 'ar') await chooseArabic(page);
      const photo = demoPhoto('sample6.jpg');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'people.jpg', mimeType: 'image/jpeg', buffer: photo });

      await page.getByText(words.pixelate, { exact: true }).click();
      const strength = page.getByRole('slider', { name: words.strength });
      await strength.focus();
      // Up raises it in either direction (Right lowers it in Arabic, as the slider runs right to left).
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(strength).toHaveAttribute('aria-valuenow', '7');

      // An area placed by hand is previewed in the server's blocks.
      await page.getByRole('button', { name: words.add }).click();
      const area = page.getByTestId('blur-area').first();
      await expect(area).toHaveAttribute('data-style', 'pixelate');
      const box = (await area.boundingBox())!;
      const previewWidth = (await page.getByRole('img').first().boundingBox())!.width;
      const scale = previewWidth / 1920;
      const side = Math.round(box.width / scale);
      const block = pixelBlockSize({ width: side, height: side }, 7) * scale;
      const runs = await previewRuns(page);
      // Whole blocks (all but the last, cut by the edge) are block-wide, give or take a pixel.
      for (const run of runs.slice(0, -1)) expect(Math.abs(run - block)).toBeLessThanOrEqual(1.5);

      await page.getByRole('switch', { name: words.detectAll }).check({ force: true });
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `test-results/blur-face-${language}-${width}.png`,
        fullPage: true,
      });
      if (language === 'en' && width === 1280) {
        expect(await seriousViolations(page)).toEqual([]);
      }
      await area.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/blur-face-${language}-${width}-area.png` });

      const [file] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        page.getByRole('button', { name: words.submit }).click(),
      ]);
      expect(file.suggestedFilename()).toBe('people-blurred.jpg');
      const result = readFileSync((await file.path())!);
      expect(await sharp(result).metadata()).toMatchObject({ width: 1920, height: 1537 });
    });
  }
}

test('blur faces: "blur all faces" in a batch finds each photo’s own faces, solid boxes', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'blur styles password 2');
  await page.goto('/blur-face');
  await page.locator('input[type="file"]').setInputFiles([
    { name: 'one.jpg', mimeType: 'image/jpeg', buffer: demoPhoto('sample6.jpg') },
    { name: 'two.jpg', mimeType: 'image/jpeg', buffer: demoPhoto('sample2.jpg') },
  ]);
  await page.getByText(WORDS.en.box, { exact: true }).click();
  await page.getByRole('switch', { name: WORDS.en.detectAll }).check({ force: true });
  await page.getByTestId('batch-start').click();
  await expect(page.getByText('2 done, 0 failed, of 2')).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: 'test-results/blur-face-batch-en-1280.png', fullPage: true });
});

test('blur faces: "blur all faces" on one photo shows the faces found for review, and a box removed stays clear', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'blur review password 1');
  await page.goto('/blur-face');
  const photo = demoPhoto('sample6.jpg');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'people.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByText(WORDS.en.box, { exact: true }).click();
  // Turning it on finds the faces on the preview at once: no other button to press.
  await page.getByRole('switch', { name: WORDS.en.detectAll }).check({ force: true });
  const boxes = page.getByTestId('blur-area');
  await expect(boxes.first()).toBeVisible({ timeout: 60_000 });
  const found = await boxes.count();
  expect(found).toBeGreaterThanOrEqual(2);

  // Where each box is on the photo, in its own pixels.
  const preview = (await page.getByRole('img').first().boundingBox())!;
  const scale = preview.width / 1920;
  const onPhoto = async (index: number) => {
    const b = (await boxes.nth(index).boundingBox())!;
    const [left, top] = [
      Math.round((b.x - preview.x) / scale),
      Math.round((b.y - preview.y) / scale),
    ];
    return { left, top, width: Math.round(b.width / scale), height: Math.round(b.height / scale) };
  };
  const kept = await onPhoto(0);
  const removed = await onPhoto(1);
  await page.getByRole('button', { name: 'Remove blur area 2' }).click();
  await expect(boxes).toHaveCount(found - 1);

  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: WORDS.en.submit }).click(),
  ]);
  const result = readFileSync((await file.path())!);
  /** Mean difference of a region between the photo and the result, 0–255. */
  const change = async (region: { left: number; top: number; width: number; height: number }) => {
    const original = await sharp(photo).extract(region).raw().toBuffer();
    const blurred = await sharp(result).extract(region).raw().toBuffer();
    return (
      original.reduce((sum, value, i) => sum + Math.abs(value - blurred[i]!), 0) / original.length
    );
  };
  // The kept face is under a solid box; the removed one is as it was, but for JPEG's noise.
  expect(await change(kept)).toBeGreaterThan(20);
  expect(await change(removed)).toBeLessThan(6);
});
