import { readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { seriousViolations } from './axe';
import { zipContents } from './batch-files';
import { signUp, uniqueEmail, useLanguage } from './helpers';

/** The watermark's controls driven in English and Arabic, wide and at 375 px. */

type Words = Record<string, string> & { anchor: Record<string, string> };
const words = (language: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../src/locales/${language}.json`, import.meta.url), 'utf8'),
    ) as {
      watermark: Words;
    }
  ).watermark;

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#5b8bd0' } })
    .jpeg()
    .toBuffer();

/** A 120×60 logo: an opaque orange disc on transparency. */
const logoPng = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle cx="60" cy="30" r="28" fill="#ff8800"/></svg>',
    ),
  )
    .png()
    .toBuffer();

/** Quadrants (of the image's box) that hold the centre of at least one of `marks`. */
async function quadrantsCovered(image: Locator, marks: Locator) {
  const frame = (await image.boundingBox())!;
  const seen = new Set<string>();
  for (const mark of await marks.all()) {
    const box = await mark.boundingBox();
    if (!box) continue;
    const [x, y] = [box.x + box.width / 2 - frame.x, box.y + box.height / 2 - frame.y];
    if (x < 0 || y < 0 || x > frame.width || y > frame.height) continue;
    seen.add(
      `${y < frame.height / 2 ? 'top' : 'bottom'}-${x < frame.width / 2 ? 'left' : 'right'}`,
    );
  }
  return seen.size;
}

/** The downloaded result: its pixels, and which quadrants hold pixels like `match`. */
async function downloaded(page: Page, submit: string, match: (rgb: number[]) => boolean) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: submit }).click(),
  ]);
  const bytes = readFileSync((await file.path())!);
  writeFileSync(`/tmp/watermark-download-${Date.now()}.jpg`, bytes);
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const quadrants = new Set<string>();
  for (let y = 0; y < info.height; y += 2) {
    for (let x = 0; x < info.width; x += 2) {
      const i = (y * info.width + x) * info.channels;
      if (match([data[i]!, data[i + 1]!, data[i + 2]!]))
        quadrants.add(`${y < info.height / 2 ? 't' : 'b'}${x < info.width / 2 ? 'l' : 'r'}`);
    }
  }
  return { name: file.suggestedFilename(), width: info.width, height: info.height, quadrants };
}

const red = ([r, g, b]: number[]) => r! > 200 && g! < 90 && b! < 90;
const orange = ([r, g, b]: number[]) => r! > 200 && g! > 100 && g! < 170 && b! < 90;

for (const language of ['en', 'ar']) {
  for (const width of [1280, 375]) {
    test(`watermark controls in ${language} at ${width} px: colour, grid, tiles and a logo`, async ({
      strictPage: page,
    }) => {
      test.setTimeout(90_000);
      const w = words(language);
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'watermark password 2');
      await useLanguage(page, language);
      await page.goto('/watermark');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await page.locator('input[type="file"]').setInputFiles({
        name: 'photo.jpg',
        mimeType: 'image/jpeg',
        buffer: await photo(800, 600),
      });
      const image = page.getByRole('img').first();
      const text = page.getByTestId('watermark-text');
      await expect(text).toBeVisible();

      // Fully opaque, so that the download's pixels are the colour asked for.
      const opacity = page.getByRole('slider', {
        name: new RegExp(`^${w.opacity!.split('{{')[0]}`),
      });
      await opacity.focus();
      await page.keyboard.press('End');
      await expect(text).toHaveCSS('opacity', '1');

      // Red text in the bottom-right corner.
      await page.getByRole('textbox', { name: w.color }).fill('#ff0000');
      await page.getByRole('textbox', { name: w.color }).press('Enter');
      await expect(text).toHaveCSS('color', 'rgb(255, 0, 0)');
      await page.getByRole('button', { name: w.anchor['bottom-right'] }).click();
      await expect(page.getByRole('button', { name: w.anchor['bottom-right'] })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      const frame = (await image.boundingBox())!;
      const corner = (await text.boundingBox())!;
      expect(corner.x + corner.width).toBeGreaterThan(frame.x + frame.width * 0.85);
      expect(corner.x + corner.width).toBeLessThan(frame.x + frame.width);
      expect(corner.y + corner.height).toBeGreaterThan(frame.y + frame.height * 0.85);
      expect(await quadrantsCovered(image, text)).toBe(1);
      await page.screenshot({
        path: `/tmp/watermark-${language}-${width}-corner.png`,
        fullPage: true,
      });
      // (Placement in a corner is checked on the server's output in watermark.test.ts; the
      // account's free uses go to the two downloads below.)

      // Tiled over the whole image, in the preview and in the download.
      await page.getByText(w.tiled!, { exact: true }).click();
      const tiles = page.getByTestId('watermark-tile');
      await expect(tiles.first()).toBeVisible();
      expect(await tiles.count()).toBeGreaterThan(4);
      expect(await quadrantsCovered(image, tiles)).toBe(4);
      await page.screenshot({
        path: `/tmp/watermark-${language}-${width}-tiled.png`,
        fullPage: true,
      });
      expect((await downloaded(page, w.submit!, red)).quadrants.size).toBe(4);

      // A logo, tiled too.
      await page.getByText(w.markLogo!, { exact: true }).click();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: w.logo }).click(),
      ]);
      await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng() });
      await expect(tiles.first().locator('img')).toBeVisible();
      expect(await quadrantsCovered(image, tiles)).toBe(4);
      await page.screenshot({
        path: `/tmp/watermark-${language}-${width}-logo.png`,
        fullPage: true,
      });
      expect((await downloaded(page, w.submit!, orange)).quadrants.size).toBe(4);
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      expect(wide).toBe(false);
    });
  }
}

test('the watermark controls have no serious accessibility violations, text or logo', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'watermark password 3');
  await page.goto('/watermark');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await photo(400, 300) });
  await expect(page.getByTestId('watermark-text')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The grid is reached with Tab and pressed with the keyboard.
  await page.getByRole('button', { name: 'Top left' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Top left' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByText('Tiled', { exact: true }).click();
  await page.getByText('Logo', { exact: true }).click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a batch of two photos gets the same logo on each, sized to each photo', async ({
  strictPage: page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail(), 'watermark password 4');
  await page.goto('/watermark');
  await page.locator('input[type="file"]').setInputFiles([
    { name: 'small.jpg', mimeType: 'image/jpeg', buffer: await photo(400, 300) },
    { name: 'large.jpg', mimeType: 'image/jpeg', buffer: await photo(1200, 900) },
  ]);
  await page.getByText('Logo', { exact: true }).click();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Logo image' }).click(),
  ]);
  await chooser.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng() });
  const opacity = page.getByRole('slider', { name: /^Opacity/ });
  await opacity.focus();
  await page.keyboard.press('End');
  await page.getByTestId('batch-start').click();
  await expect(page.getByText('2 done, 0 failed, of 2')).toBeVisible({ timeout: 30_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  for (const [index, bytes] of (await zipContents((await zip.path())!)).entries()) {
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    // The logo is 30% of each photo's width; its disc is 28/60 of that across, in the middle.
    let orangeInRow = 0;
    const y = Math.round(info.height / 2);
    for (let x = 0; x < info.width; x += 1) {
      const i = (y * info.width + x) * info.channels;
      if (orange([data[i]!, data[i + 1]!, data[i + 2]!])) orangeInRow += 1;
    }
    // In name order: large.jpg, then small.jpg.
    const expected = (index === 0 ? 1200 : 400) * 0.3 * (56 / 120);
    expect(Math.abs(orangeInRow - expected)).toBeLessThan(expected * 0.1);
  }
});
