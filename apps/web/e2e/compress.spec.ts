import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A logo: a gradient disc on a transparent background. */
const logo = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480">
        <defs><radialGradient id="g"><stop offset="0" stop-color="#ffcc00"/><stop offset="1" stop-color="#cc2200"/></radialGradient></defs>
        <circle cx="240" cy="240" r="200" fill="url(#g)"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

for (const width of [1280, 375]) {
  for (const language of ['en', 'ar']) {
    test(`compress a PNG logo: a smaller PNG with alpha, saving and preview shown (${width}px, ${language})`, async ({
      strictPage: page,
    }) => {
      await signUp(page, uniqueEmail(), 'compress password 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      await page.goto('/compress');
      const input = await logo();
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: input });
      await page.locator('button[type="submit"]').click();
      const link = page.locator('a[download="logo-compressed.png"]');
      await expect(link).toBeVisible();
      // Both pictures are shown: the original and the very file the download gives.
      await expect(page.locator('figure img')).toHaveCount(2);
      expect(await overflowsHorizontally(page)).toBe(false);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({
        path: `${SCREENSHOTS}/compress-${language}-${width}.png`,
        fullPage: true,
      });
      if (language !== 'en' || width !== 1280) return;
      await expect(page.getByText(/^Saved \d+ %$/)).toBeVisible();
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const bytes = readFileSync((await download.path())!);
      expect(bytes.length).toBeLessThan(input.length);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', hasAlpha: true });
    });
  }
}
