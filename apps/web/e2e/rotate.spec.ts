import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { largestUprightRect } from '@refract/contracts';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** 200 × 100: left half red, right half blue. */
async function halves() {
  const buffer = await sharp({
    create: { width: 200, height: 100, channels: 3, background: '#ff0000' },
  })
    .composite([
      {
        input: { create: { width: 100, height: 100, channels: 3, background: '#0000ff' } },
        left: 100,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
  return { name: 'photo.png', mimeType: 'image/png', buffer };
}

async function rotated(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: button }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('photo-rotated.png');
  return sharp(readFileSync((await file.path())!))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/** The preview canvas's size, which is the result's (drawn at most 600 px). */
const previewSize = (page: Page) =>
  page.getByTestId('rotate-preview').evaluate((c: HTMLCanvasElement) => [c.width, c.height]);

test('rotate: any angle with a filled corner, mirrored, at 1280 px', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail(), 'rotate any password 1');
  await page.goto('/rotate');
  await page.locator('input[type="file"]').setInputFiles(await halves());
  const angle = page.getByRole('textbox', { name: 'Angle (°)' });
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await expect(angle).toHaveValue('90');
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await page.getByRole('button', { name: 'Rotate right' }).click();
  // Round the circle: 270° is −90°.
  await expect(angle).toHaveValue('-90');
  await angle.fill('30');
  const slider = page.getByRole('slider', { name: 'Angle' });
  await expect(slider).toHaveAttribute('aria-valuenow', '30');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(angle).toHaveValue('31');
  await angle.fill('45');
  await page.getByRole('switch', { name: 'Transparent' }).click();
  await page.getByRole('textbox', { name: 'Corner colour' }).fill('#00ff00');
  await page.getByRole('button', { name: 'Mirror' }).click();
  await page.screenshot({ path: 'test-results/rotate-en-1280.png', fullPage: true });
  const { data, info } = await rotated(page, 'Rotate and download');
  // The bounding box of 200 × 100 turned 45°: 212 × 212, the corner green.
  expect(Math.abs(info.width - 212)).toBeLessThanOrEqual(1);
  expect([...data.subarray(0, 4)]).toEqual([0, 255, 0, 255]);
  expect(await previewSize(page)).toEqual([212, 212]);
});

test('rotate: cropped to the largest upright rectangle, in Arabic at 375 px', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUp(page, uniqueEmail(), 'rotate crop password 1');
  await page.goto('/rotate');
  await chooseArabic(page);
  await page.locator('input[type="file"]').setInputFiles(await halves());
  await page.getByRole('textbox', { name: 'الزاوية (°)' }).fill('-20');
  await page.getByText('قص لتناسب الصورة').click();
  const rect = largestUprightRect(200, 100, -20);
  const [width, height] = await previewSize(page);
  expect(Math.abs(width! - rect.width)).toBeLessThanOrEqual(1);
  expect(Math.abs(height! - rect.height)).toBeLessThanOrEqual(1);
  expect(await overflowsHorizontally(page)).toBe(false);
  await page.screenshot({ path: 'test-results/rotate-ar-375.png', fullPage: true });
  const { data, info } = await rotated(page, 'تدوير وتنزيل');
  // The preview's size is the download's, within the server's 1 px margin each side.
  expect(Math.abs(info.width - width!)).toBeLessThanOrEqual(3);
  expect(Math.abs(info.height - height!)).toBeLessThanOrEqual(3);
  // No transparent corner is left.
  for (let i = 3; i < data.length; i += 4) expect(data[i]).toBeGreaterThan(200);
});
