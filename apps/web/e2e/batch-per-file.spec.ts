import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { zipContents } from './batch-files';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A 4:3 picture, so the crop frame (4:3) at zoom 1 takes all of it. */
const picture = async (name: string, width: number, colour: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({
    create: { width, height: (width * 3) / 4, channels: 3, background: colour },
  })
    .png()
    .toBuffer(),
});

/** Each zip entry's width and height, in order. */
async function zipSizes(path: string): Promise<[number, number][]> {
  const sizes: [number, number][] = [];
  for (const bytes of await zipContents(path)) {
    const { width, height } = await sharp(bytes).metadata();
    sizes.push([width!, height!]);
  }
  return sizes;
}

test('crop steps through a batch by keyboard: the second image gets its own frame', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'per file password 1');
  await page.goto('/crop');
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      await picture('1-wide.png', 600, '#c33'),
      await picture('2-big.png', 800, '#36c'),
    ]);
  const stepper = page.getByTestId('batch-stepper');
  await expect(stepper).toContainText('File 1 of 2');
  await expect(stepper).toContainText('Files you do not adjust use this setting.');

  await stepper.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await expect(stepper).toContainText('File 2 of 2');
  await expect(stepper).toContainText("Uses the first file's setting until you adjust it here.");
  await expect(stepper.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Zoom 1 → 2 with the slider's keys: the frame then takes half of this image's width.
  await page.getByRole('slider').focus();
  for (let i = 0; i < 10; i += 1) await page.keyboard.press('ArrowRight');
  await expect(stepper).toContainText('Adjusted for this file only.');
  await stepper.getByRole('button', { name: 'Previous' }).click();
  await expect(stepper).toContainText('File 1 of 2');

  await page.getByTestId('batch-start').click();
  await expect(page.getByText('2 done, 0 failed, of 2')).toBeVisible({ timeout: 30_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  const [first, second] = await zipSizes((await zip.path())!);
  // The frame rounds its rectangle to whole pixels: one either way.
  expect(Math.abs(first![0] - 600)).toBeLessThanOrEqual(1);
  expect(Math.abs(first![1] - 450)).toBeLessThanOrEqual(1);
  expect(Math.abs(second![0] - 400)).toBeLessThanOrEqual(1);
  expect(Math.abs(second![1] - 300)).toBeLessThanOrEqual(1);
});

test('one file’s frame applied to all: every file follows it again', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'per file password 2');
  await page.goto('/crop');
  await page
    .locator('input[type="file"]')
    .setInputFiles([await picture('a.png', 400, '#c33'), await picture('b.png', 400, '#3c3')]);
  const stepper = page.getByTestId('batch-stepper');
  await stepper.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(stepper).toContainText('Adjusted for this file only.');
  await stepper.getByRole('button', { name: 'Apply this setting to all files' }).click();
  await expect(stepper).toContainText("Uses the first file's setting until you adjust it here.");
  await stepper.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Zoom: 1.1×')).toBeVisible();
});

test('watermark: the second photo gets its own position, the rest keep theirs', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'per file password 3');
  await page.goto('/watermark');
  const same = await picture('1-same.png', 400, '#777');
  await page
    .locator('input[type="file"]')
    .setInputFiles([same, { ...same, name: '2-moved.png' }, { ...same, name: '3-kept.png' }]);
  const stepper = page.getByTestId('batch-stepper');
  await stepper.getByRole('button', { name: 'Next' }).click();
  const text = page.getByRole('slider', { name: 'Watermark position' });
  await text.focus();
  await page.keyboard.press('Shift+ArrowUp');
  await expect(text).toHaveAttribute('aria-valuetext', '50% from the left, 40% from the top');
  await expect(stepper).toContainText('Adjusted for this file only.');
  await stepper.getByRole('button', { name: 'Next' }).click();
  await expect(text).toHaveAttribute('aria-valuetext', '50% from the left, 50% from the top');

  await page.getByTestId('batch-start').click();
  await expect(page.getByText('3 done, 0 failed, of 3')).toBeVisible({ timeout: 30_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  // The same picture three times: only the moved text makes the second one differ.
  const [first, moved, kept] = await zipContents((await zip.path())!);
  expect(first!.equals(kept!)).toBe(true);
  expect(first!.equals(moved!)).toBe(false);
});

test('blur faces: the second photo gets one more area, the others the first one’s', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'per file password 4');
  await page.goto('/blur-face');
  // Noise, so that blurring any area changes the picture.
  const noisy = {
    name: '1-one.png',
    mimeType: 'image/png',
    buffer: await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer(),
  };
  await page
    .locator('input[type="file"]')
    .setInputFiles([noisy, { ...noisy, name: '2-two.png' }, { ...noisy, name: '3-three.png' }]);
  await page.getByRole('button', { name: 'Add blur area' }).click();
  await expect(page.getByTestId('blur-area')).toHaveCount(1);
  const stepper = page.getByTestId('batch-stepper');
  await stepper.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('blur-area')).toHaveCount(1);
  await page.getByRole('group', { name: 'Blur area 1' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(stepper).toContainText('Adjusted for this file only.');

  await page.getByTestId('batch-start').click();
  await expect(page.getByText('3 done, 0 failed, of 3')).toBeVisible({ timeout: 30_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  const [first, moved, third] = await zipContents((await zip.path())!);
  expect(first!.equals(third!)).toBe(true);
  expect(first!.equals(moved!)).toBe(false);
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`the crop step-through fits at ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      await signUp(page, uniqueEmail(), 'per file layout 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/crop');
      await page
        .locator('input[type="file"]')
        .setInputFiles([
          await picture('holiday-photo-with-a-rather-long-name.png', 400, '#c33'),
          await picture('صورة.png', 400, '#36c'),
          await picture('third.png', 400, '#3c3'),
        ]);
      const stepper = page.getByTestId('batch-stepper');
      await stepper.getByRole('button', { name: language === 'ar' ? 'التالي' : 'Next' }).click();
      await expect(stepper).toContainText(language === 'ar' ? 'الملف 2 من 3' : 'File 2 of 3');
      // Only looked at, never changed: still the first file's frame.
      await expect(stepper).toContainText(
        language === 'ar' ? 'يستخدم إعداد الملف الأول' : "Uses the first file's setting",
      );
      // "Previous" points to where the list starts: right in Arabic.
      const previous = stepper.getByRole('button', {
        name: language === 'ar' ? 'السابق' : 'Previous',
      });
      await expect(
        previous.locator(`.tabler-icon-chevron-${language === 'ar' ? 'right' : 'left'}`),
      ).toHaveCount(1);
      await expect(page.getByTestId('batch-row')).toHaveCount(3);
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/batch-crop-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
