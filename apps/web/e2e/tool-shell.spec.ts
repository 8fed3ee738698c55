import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { grainyJpeg, zipNames } from './batch-files';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** The tool shell (components/tool/tool-shell.tsx): one click downloads; refused files named. */

const png = async (name: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({
    create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 60, b: 30 } },
  })
    .png()
    .toBuffer(),
});

/** An image, a text file, an MP3 and an image over the 10 MB limit, picked at once. */
async function mixedPick() {
  return [
    await png('photo.png'),
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
    { name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.alloc(2048, 1) },
    { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024 * 1024, 1) },
  ];
}

const saved = async (page: Page, act: () => Promise<unknown>) => {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), act()]);
  return file;
};

test('"Rotate and download" downloads on the first click, alone and as a batch', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail(), 'shell password 1');
  await page.goto('/rotate');
  await page.locator('input[type="file"]').setInputFiles(await png('photo.png'));
  await page.getByRole('button', { name: 'Rotate right' }).click();
  const button = page.getByRole('button', { name: 'Rotate and download' });
  const single = await saved(page, () => button.click());
  expect(single.suggestedFilename()).toBe('photo-rotated.png');
  expect(await sharp(readFileSync((await single.path())!)).metadata()).toMatchObject({
    width: 80,
    height: 120,
  });
  // The result card keeps a link to save it again.
  await expect(page.getByRole('link', { name: 'Download photo-rotated.png' })).toBeVisible();

  await page
    .locator('input[type="file"]')
    .setInputFiles([
      await grainyJpeg('a.jpg', { width: 60, height: 40, mean: 90 }),
      await grainyJpeg('b.jpg', { width: 50, height: 30, mean: 140 }),
    ]);
  const zip = await saved(page, () => page.getByTestId('batch-start').click());
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  expect(await zipNames((await zip.path())!)).toEqual(['a.jpg', 'b.jpg']);
});

for (const width of [1280, 375]) {
  test(`files that cannot be used are each named with the reason, at ${width} px`, async ({
    strictPage: page,
  }) => {
    // Three pages, two languages and an 11 MB pick: slow on a busy machine.
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/rotate');
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(await mixedPick());
    const refused = page.getByTestId('refused-files');
    await expect(refused).toContainText('3 files were left out');
    await expect(refused.getByRole('listitem')).toHaveText([
      'notes.txt: Not an image this tool can read.',
      'song.mp3: Not an image this tool can read.',
      'huge.png: This file is larger than the 10 MB limit.',
    ]);
    // The usable one is taken: its preview (rotate's own, drawn as the server turns) shows.
    await expect(page.getByRole('img', { name: 'Preview of the rotated image' })).toBeVisible();
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: `test-results/shell-refused-en-${width}.png`, fullPage: true });

    // The same on a video tool: an image is the wrong kind there.
    await page.goto('/compress-video');
    await page
      .locator('input[type="file"]')
      .setInputFiles([await png('still.png'), { ...(await png('x.png')), name: 'clip.txt' }]);
    await expect(page.getByTestId('refused-files').getByRole('listitem')).toHaveText([
      'still.png: Not a video this tool can read.',
      'clip.txt: Not a video this tool can read.',
    ]);

    await page.goto('/rotate');
    await chooseArabic(page);
    await page.locator('input[type="file"]').setInputFiles(await mixedPick());
    const arabic = page.getByTestId('refused-files');
    await expect(arabic).toContainText('الملفات المستبعدة: 3');
    await expect(arabic.getByRole('listitem').first()).toContainText(
      'ليست صورة تستطيع هذه الأداة قراءتها.',
    );
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.screenshot({ path: `test-results/shell-refused-ar-${width}.png`, fullPage: true });
    await arabic.getByRole('button').click();
    await expect(arabic).toBeHidden();
  });
}

test('a file dropped on the dropzone is taken, and the page stays', async ({
  strictPage: page,
}) => {
  await page.goto('/rotate');
  const { buffer } = await png('dropped.png');
  const dropped = await page.evaluateHandle(
    (bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
      return data;
    },
    [...buffer],
  );
  const zone = page.getByRole('button', { name: 'Choose a file, or drop it here' });
  // A drop before React runs the prerendered dropzone is only kept from leaving the page.
  await zone.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const hydrated = () => Object.keys(element).some((key) => key.startsWith('__reactProps'));
        const check = () => (hydrated() ? resolve() : setTimeout(check, 50));
        check();
      }),
  );
  for (const type of ['dragenter', 'dragover', 'drop'])
    await zone.dispatchEvent(type, { dataTransfer: dropped });
  await expect(page.getByText('dropped.png').first()).toBeVisible();
  await expect(page).toHaveURL(/\/rotate$/);
});
