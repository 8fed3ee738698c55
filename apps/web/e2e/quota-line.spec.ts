import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, logInAsAdmin, rotateFromPage, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('a tool page shows the uses left and the reset date; with none left it says so before any upload', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'quota line password 1');
  await page.goto('/rotate');
  const line = page.getByTestId('quota-line');
  await expect(line).toHaveText(/^Uses left: 3 of 3, until .+\.$/);
  const submit = page.getByRole('button', { name: 'Rotate and download' });
  await page.locator('input[type=file]').setInputFiles({
    name: 'dot.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await expect(submit).toBeEnabled();

  // Another page's service is counted apart.
  expect(await rotateFromPage(page, 3)).toEqual([200, 200, 200]);
  await page.goto('/compress-audio');
  await expect(page.getByTestId('quota-line')).toHaveText(/^Uses left: 3 of 3/);

  await page.goto('/rotate');
  await expect(line).toHaveText(/^You have no uses of this tool left until .+\. See the plans$/);
  await page.locator('input[type=file]').setInputFiles({
    name: 'dot.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  // A file is chosen, yet nothing can be sent: no use is left.
  await expect(submit).toBeDisabled();
  await line.getByRole('link', { name: 'See the plans' }).click();
  await expect(page).toHaveURL(/\/plans$/);
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`the quota line and the admin users page fit at ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'quota layout password 1');
      if (language === 'ar') await chooseArabic(page);
      await page.goto('/compress-video');
      await expect(page.getByTestId('quota-line')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/quota-${language}-${width}.png`,
        fullPage: true,
      });
      // The admin page in English only: the admin signs in by the English labels.
      if (language === 'ar') return;
      await page.evaluate(() => localStorage.clear());
      await logInAsAdmin(page);
      await page.goto('/admin/users');
      await page
        .getByRole('button', { name: /Marie Curie/ })
        .first()
        .click();
      await expect(page.getByRole('menu')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({ path: `${SCREENSHOTS}/admin-users-${language}-${width}.png` });
    });
  }
}
