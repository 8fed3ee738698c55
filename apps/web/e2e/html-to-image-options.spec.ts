import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

test('HTML to image at 2× as WebP: width × scale pixels, the sealed note shown', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail(), 'html options 1');
  await page.goto('/html-to-image');
  await expect(page.getByText('The render is sealed')).toBeVisible();
  await page.getByLabel('Width (CSS pixels)').fill('400');
  await page.getByRole('switch', { name: 'Full page' }).uncheck({ force: true });
  await page.getByLabel('Height (CSS pixels)').fill('200');
  await page.getByText('2×', { exact: true }).click();
  await page.getByText('WEBP', { exact: true }).click();
  await expect(page.getByText('Image: 800 pixels wide, 400 high')).toBeVisible();
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByRole('img', { name: 'The rendered image' })).toBeVisible({
    timeout: 30_000,
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: `${SCREENSHOTS}/html-to-image-options-1280-en.png`,
    fullPage: true,
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Download/ }).click(),
  ]);
  const meta = await sharp(readFileSync((await download.path())!)).metadata();
  expect(meta).toMatchObject({ format: 'webp', width: 800, height: 400 });
});
