import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { seriousViolations } from './axe';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** 1600×1200, left half orange and right half teal, so a crop or a padding shows. */
const photo = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#e8590c' } })
    .composite([
      {
        input: { create: { width: 800, height: 1200, channels: 3, background: '#0ca678' } },
        left: 800,
        top: 0,
      },
    ])
    .png()
    .toBuffer();

/** The page's text without the invisible marks that keep sizes left to right in Arabic. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

test('resize a PNG to a preset and download it', async ({ strictPage: page }) => {
  await signUp(page, uniqueEmail(), 'resize password 1');
  await page.goto('/resize');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await photo() });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  const plan = page.getByTestId('resize-plan');
  // The image's own size first, read in the browser.
  await expect(page.getByRole('textbox', { name: 'Width (px)' })).toHaveValue('1600');
  await expect.poll(async () => plain(await plan.textContent())).toContain('1600 × 1200 px');

  // Width alone, aspect locked: the height follows.
  await page.getByRole('textbox', { name: 'Width (px)' }).fill('800');
  await expect(page.getByRole('textbox', { name: 'Height (px)' })).toHaveValue('600');
  await expect.poll(async () => plain(await plan.textContent())).toContain('aspect 4:3');

  const preset = page.getByRole('button', { name: /Square post/ });
  await preset.click();
  await expect(preset).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('switch', { name: 'Keep aspect ratio' })).not.toBeChecked();
  await page.getByRole('textbox', { name: 'Fit' }).click();
  await page.getByRole('option', { name: 'Cover: fill and crop' }).click();
  await expect
    .poll(async () => plain(await plan.textContent()))
    .toBe('Result: 1080 × 1080 px · aspect 1:1');

  await page.getByRole('button', { name: 'Resize and download' }).click();
  const result = page.getByRole('status');
  await expect(result).toContainText('Your file is ready');
  expect(plain(await result.textContent())).toContain('Dimensions: 1600 × 1200 → 1080 × 1080');
  const link = page.getByRole('link', { name: 'Download photo-1080x1080.png' });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('photo-1080x1080.png');
  const file = readFileSync((await download.path())!);
  expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 1080, height: 1080 });
  // Cover crops the sides evenly: orange on the left, teal on the right.
  const { data } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * 1080 + x) * 3, (y * 1080 + x) * 3 + 3),
  ];
  expect(at(10, 540)).toEqual([232, 89, 12]);
  expect(at(1070, 540)).toEqual([12, 166, 120]);

  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-modify-resize')).toHaveText('1 of 3 used');
});

test('resize does not enlarge unless allowed, and says so', async ({ strictPage: page }) => {
  await signUp(page, uniqueEmail(), 'resize password 2');
  await page.goto('/resize');
  const small = await sharp({
    create: { width: 300, height: 200, channels: 3, background: '#888' },
  })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: small });
  await page.getByRole('button', { name: /Full HD/ }).click();
  const plan = page.getByTestId('resize-plan');
  // Contain keeps the target's shape, at the size that shows the image at 100 %.
  await expect.poll(async () => plain(await plan.textContent())).toContain('356 × 200 px');
  await expect(plan).toContainText('Turn on “Allow enlarging” to get');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('switch', { name: 'Allow enlarging' }).check();
  await expect
    .poll(async () => plain(await plan.textContent()))
    .toBe('Result: 1920 × 1080 px · aspect 16:9');
  // The mode is a radio group: the keyboard moves between its choices.
  await page.getByRole('radio', { name: 'Pixels' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Percentage' })).toBeChecked();
  await page.getByRole('textbox', { name: 'Size' }).fill('50');
  await expect.poll(async () => plain(await plan.textContent())).toContain('150 × 100 px');
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`the resize page fits at ${width}px in ${language}`, async ({ strictPage: page }) => {
      await signUp(page, uniqueEmail(), 'resize layout 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/resize');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await photo() });
      await page.getByRole('button', { name: /1200×630/ }).click();
      await expect(page.getByTestId('resize-plan')).toContainText('1200');
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.locator('button[type="submit"]').click();
      await expect(page.locator('a[download="photo-1200x630.png"]')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({
        path: `${SCREENSHOTS}/resize-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
