import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { signUp, uniqueEmail } from './helpers';

const png = () =>
  sharp({
    create: { width: 64, height: 48, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer();

test('convert a PNG to WEBP and download it', async ({ strictPage: page }) => {
  await signUp(page, uniqueEmail(), 'convert password 1');
  await page.goto('/convert');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await png() });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Convert to' }).click();
  await page.getByRole('option', { name: 'WEBP', exact: true }).click();
  // Only formats this server writes are offered; the help names those it reads but cannot write.
  const { formats } = (await (await page.request.get('/api/formats')).json()) as {
    formats: { format: string; read: boolean; write: boolean }[];
  };
  await page.getByRole('textbox', { name: 'Convert to' }).click();
  const offered = await page.getByRole('option').allTextContents();
  expect(offered.sort()).toEqual(
    formats
      .filter((f) => f.write)
      .map((f) => f.format.toUpperCase())
      .sort(),
  );
  expect(offered).not.toContain('XCF');
  expect(offered).not.toContain('CDR');
  await page.keyboard.press('Escape');
  const help = page.getByText(/also reads .* but cannot write them/);
  for (const f of formats.filter((f) => f.read && !f.write))
    await expect(help).toContainText(f.format.toUpperCase());

  await page.getByRole('button', { name: 'Convert to WEBP' }).click();
  const link = page.getByRole('link', { name: 'Download photo.webp' });
  await expect(link).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('photo.webp');
  const meta = await sharp(readFileSync((await download.path())!)).metadata();
  expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
});

test('a damaged image shows the translated error and costs nothing', async ({ page }) => {
  // The 422 is expected, so this test uses the plain page.
  await signUp(page, uniqueEmail(), 'broken password 1');
  await page.goto('/rotate');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'broken.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not really a png'),
  });
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await page.getByRole('button', { name: 'Rotate and download' }).click();
  await expect(page.getByRole('alert')).toHaveText('This type of file is not supported.');
  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-modify-rotate')).toHaveText('0 of 3 used');
});

test('HTML to image renders on the server and downloads html-image.png', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'html password 1');
  await page.goto('/html-to-image');
  const editor = page.getByRole('textbox', { name: 'HTML and CSS' });
  await editor.fill('   ');
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter some HTML content.');

  await editor.fill('<h1 style="color:#c2255c">مرحبا 你好 Hello</h1>');
  await page.getByRole('button', { name: 'Generate image' }).click();
  await expect(page.getByRole('img', { name: 'The rendered image' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download html-image.png' }).click(),
  ]);
  const meta = await sharp(readFileSync((await download.path())!)).metadata();
  expect(meta).toMatchObject({ format: 'png', width: 1280 });
});
