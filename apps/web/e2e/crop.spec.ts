import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** 800 × 400 in four quarters: red, blue above; green, white below. */
async function quarters() {
  const quarter = (background: string, left: number, top: number) => ({
    input: { create: { width: 400, height: 200, channels: 3 as const, background } },
    left,
    top,
  });
  const buffer = await sharp({
    create: { width: 800, height: 400, channels: 3, background: '#000' },
  })
    .composite([
      quarter('#ff0000', 0, 0),
      quarter('#0000ff', 400, 0),
      quarter('#00ff00', 0, 200),
      quarter('#ffffff', 400, 200),
    ])
    .png()
    .toBuffer();
  return { name: 'photo.png', mimeType: 'image/png', buffer };
}

async function pickRatio(page: Page, label: string, option: string) {
  await page.getByRole('textbox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function croppedFile(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name: button }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('photo-cropped.png');
  const { data, info } = await sharp(readFileSync((await file.path())!))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, first: [...data.subarray(0, 3)] };
}

test('crop: turned, free frame typed in pixels, cut the same by the server (1280 px)', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail(), 'crop free password 1');
  await page.goto('/crop');
  await page.locator('input[type="file"]').setInputFiles(await quarters());
  const result = page.getByTestId('crop-result');
  // 4:3 by default: the largest 4:3 frame of 800 × 400.
  await expect(result).toHaveText('Result: 533 × 400 px');
  await page.getByRole('button', { name: 'Switch to portrait' }).click();
  await expect(result).toHaveText('Result: 300 × 400 px');

  await page.getByRole('button', { name: 'Turn right' }).click();
  await pickRatio(page, 'Aspect ratio', 'Free');
  // Turned, the image is 400 × 800: the whole of it is the free frame.
  await expect(result).toHaveText('Result: 400 × 800 px');
  await page.getByRole('textbox', { name: 'Width (px)' }).fill('200');
  await page.getByRole('textbox', { name: 'Height (px)' }).fill('400');
  await page.getByRole('textbox', { name: 'X (px)' }).fill('200');
  await expect(result).toHaveText('Result: 200 × 400 px');
  await expect(page.getByTestId('crop-frame')).toHaveAttribute(
    'aria-label',
    'Crop frame: 200 × 400 px at 200, 0. Arrow keys move it.',
  );
  await page.screenshot({ path: 'test-results/crop-en-1280.png', fullPage: true });
  // The top right of the turned image was the top left: red.
  expect(await croppedFile(page, 'Crop and download')).toEqual({
    width: 200,
    height: 400,
    first: [255, 0, 0],
  });

  // Turned back and mirrored, red is top right; the zoom (2×) stays; the keyboard moves it.
  await page.getByRole('button', { name: 'Turn left' }).click();
  await page.getByRole('button', { name: 'Mirror' }).click();
  await pickRatio(page, 'Aspect ratio', '1:1');
  await expect(result).toHaveText('Result: 200 × 200 px');
  await expect(page.getByText('Zoom: 2.0×')).toBeVisible();
  await page.getByTestId('crop-frame').focus();
  for (let press = 0; press < 5; press += 1) await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByRole('textbox', { name: 'X (px)' })).toHaveValue('600');
  expect(await croppedFile(page, 'Crop and download')).toEqual({
    width: 200,
    height: 200,
    first: [255, 0, 0],
  });
});

test('crop: a corner dragged on a phone, in Arabic (375 px)', async ({ strictPage: page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUp(page, uniqueEmail(), 'crop phone password 1');
  await page.goto('/crop');
  await chooseArabic(page);
  await page.locator('input[type="file"]').setInputFiles(await quarters());
  await pickRatio(page, 'نسبة العرض إلى الارتفاع', '1:1');
  const result = page.getByTestId('crop-result');
  const width = page.getByRole('textbox', { name: 'العرض (بكسل)' });
  await expect(width).toHaveValue('400');
  await expect(result).toContainText('النتيجة:');
  // The bottom left corner dragged up and right: a smaller square, its top right kept.
  const corner = page.locator('[data-handle="sw"]');
  const box = (await corner.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 - 40, { steps: 5 });
  await page.mouse.up();
  const side = Number(await width.inputValue());
  expect(side).toBeLessThan(400);
  expect(side).toBeGreaterThan(200);
  expect(await overflowsHorizontally(page)).toBe(false);
  await page.screenshot({ path: 'test-results/crop-ar-375.png', fullPage: true });
  const file = await croppedFile(page, 'قص الصورة وتنزيلها');
  expect([file.width, file.height]).toEqual([side, side]);
});
