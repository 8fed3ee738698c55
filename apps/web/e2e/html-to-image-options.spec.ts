import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import ar from '../src/locales/ar.json' with { type: 'json' };
import en from '../src/locales/en.json' with { type: 'json' };
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));
const WORDS = { en, ar } as const;

for (const width of [1280, 375]) {
  for (const language of ['en', 'ar'] as const) {
    test(`HTML to image at 2× as WebP: width × scale pixels, the sealed note shown (${language}, ${width} px)`, async ({
      strictPage: page,
    }) => {
      const words = WORDS[language].htmlToImage;
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'html options 1');
      if (language === 'ar') await chooseArabic(page);
      await page.goto('/html-to-image');
      await expect(page.getByText(words.sealed)).toBeVisible();
      await page.getByLabel(words.width).fill('400');
      await page.getByRole('switch', { name: words.fullPage }).uncheck({ force: true });
      await page.getByLabel(words.height).fill('200');
      await page.getByText('2×', { exact: true }).click();
      await page.getByText('WEBP', { exact: true }).click();
      if (language === 'en') {
        await expect(page.getByText('Image: 800 pixels wide, 400 high')).toBeVisible();
      }
      await page.getByRole('button', { name: words.submit }).click();
      await expect(page.getByRole('img', { name: words.preview })).toBeVisible({
        timeout: 30_000,
      });
      expect(await overflowsHorizontally(page)).toBe(false);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({
        path: `${SCREENSHOTS}/html-to-image-options-${width}-${language}.png`,
        fullPage: true,
      });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('a[download]').click(),
      ]);
      const meta = await sharp(readFileSync((await download.path())!)).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 800, height: 400 });
    });
  }
}
