import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseArabic } from './helpers';
import { expect, overflowsHorizontally, test } from './fixtures';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

test('home renders inside the header and footer, and nav is client-side', async ({
  strictPage: page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Refract/);

  // A marker on window survives client-side navigation but not a full page load.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.getByRole('banner').getByRole('link', { name: 'Plans', exact: true }).click();
  await expect(page).toHaveURL(/\/plans$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plans' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
});

test('a deep link loads the app, and unknown pages show a not-found page', async ({
  strictPage: page,
}) => {
  await page.goto('/refund-policy');
  await expect(page.getByRole('heading', { level: 1, name: 'Refund policy' })).toBeVisible();
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('Arabic switches the page to right-to-left', async ({ strictPage: page }) => {
  await page.goto('/');
  await chooseArabic(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`no horizontal overflow at ${width}px in ${language}`, async ({ strictPage: page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.addInitScript((lang) => localStorage.setItem('refract.language', lang), language);
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const path of ['/', '/login', '/signup']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await overflowsHorizontally(page)).toBe(false);
        const name = path === '/' ? 'home' : path.slice(1);
        await page.screenshot({
          path: `${SCREENSHOTS}/${name}-${language}-${width}.png`,
          fullPage: true,
        });
      }
    });
  }
}
