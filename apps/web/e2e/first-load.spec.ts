import type { Page } from '@playwright/test';
import { chooseArabic } from './helpers';
import { expect, test } from './fixtures';

/** The script and style files the page fetched, by file name, with how they were encoded. */
function recordAssets(page: Page) {
  const assets: { name: string; encoding?: string }[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/assets/'))
      assets.push({ name: url.pathname.slice(8), encoding: res.headers()['content-encoding'] });
  });
  return assets;
}

const named = (assets: { name: string }[], prefix: string) =>
  assets.filter((a) => a.name.startsWith(prefix)).map((a) => a.name.split('-')[1]);

test('a visitor fetches their own language only, compressed; another comes when chosen', async ({
  strictPage: page,
}) => {
  const assets = recordAssets(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(named(assets, 'locale-')).toEqual(['en']);
  expect(named(assets, 'legal-')).toEqual([]);
  // Chromium asks for br: every script and style comes precompressed.
  for (const asset of assets.filter((a) => /\.(js|css)$/.test(a.name)))
    expect(asset.encoding, asset.name).toBe('br');

  await chooseArabic(page);
  expect(named(assets, 'locale-')).toEqual(['en', 'ar']);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('');
});

test('legal texts are fetched when a legal page opens, in the language shown', async ({
  strictPage: page,
}) => {
  const assets = recordAssets(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(named(assets, 'legal-')).toEqual([]);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  expect(named(assets, 'legal-')).toEqual(['en']);
  await chooseArabic(page);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Privacy policy');
  expect(named(assets, 'legal-')).toEqual(['en', 'ar']);
});

test('a remembered language is the one fetched on the next visit', async ({ strictPage: page }) => {
  await page.goto('/');
  await chooseArabic(page);
  const assets = recordAssets(page);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Arabic first; English follows after the first paint, as the fallback for a missing key.
  expect(named(assets, 'locale-')[0]).toBe('ar');
});

test('the stylesheet does not hold up the shell, and is applied before the app draws', async ({
  strictPage: page,
}) => {
  // A page the app draws by itself (a prerendered page's stylesheets block its first paint:
  // prerendered-pages.spec.ts).
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The entry's and the app's stylesheets: fetched as print media (which never blocks
  // painting), switched to all media by main.tsx.
  const styles = await page.locator('link[data-app-styles]').all();
  expect(styles.length).toBeGreaterThan(0);
  for (const link of styles) await expect(link).toHaveAttribute('media', 'all');
  // Mantine's reset and a component's own stylesheet are both in force.
  expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
  const button = page.locator('.mantine-Button-root').first();
  expect(await button.evaluate((el) => getComputedStyle(el).borderRadius)).not.toBe('0px');
});
