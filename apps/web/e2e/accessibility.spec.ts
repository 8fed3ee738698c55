import type { Page } from '@playwright/test';
import { TOOLS } from '@refract/contracts';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { logInAsAdmin, PUBLIC_PAGES, signUp, uniqueEmail } from './helpers';

async function expectAccessible(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Wait for queries (plans, stats) to settle so the checked page is the finished one.
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page), path).toEqual([]);
}

for (const language of ['en', 'ar']) {
  test(`public pages have no serious accessibility violations (${language})`, async ({
    strictPage: page,
  }) => {
    test.setTimeout(120_000);
    await page.addInitScript((lang) => localStorage.setItem('refract.language', lang), language);
    for (const path of PUBLIC_PAGES) await expectAccessible(page, path);
  });
}

test('the dashboard and every tool page have no serious accessibility violations', async ({
  strictPage: page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail(), 'a11y password 1');
  await expectAccessible(page, '/dashboard');
  for (const tool of TOOLS) await expectAccessible(page, tool.route);
});

test('the payment pages have no serious accessibility violations', async ({ strictPage: page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail(), 'a11y payments 1');
  await expectAccessible(page, '/payment-history');
  await page.goto('/plans');
  await page
    .locator('[data-testid="plan-card"]', { hasText: 'Developer' })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(/\/subscribe\?planId=/);
  await expectAccessible(page, page.url());
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expectAccessible(page, page.url());
});

test('the admin pages have no serious accessibility violations', async ({ strictPage: page }) => {
  await logInAsAdmin(page);
  for (const path of ['/admin', '/admin/users', '/admin/plans', '/admin/payment-history']) {
    await expectAccessible(page, path);
  }
});

test('the header, menus and home page are usable with the keyboard alone', async ({
  strictPage: page,
}) => {
  await page.goto('/');
  // Keys pressed before the app has rendered would go to the bare document.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The first Tab reaches the skip link, which moves focus to the main content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();

  // The Features menu opens when it gets keyboard focus; arrows walk its items.
  const features = page.getByRole('button', { name: 'Features' });
  await features.focus();
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem').first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(features).toBeFocused();

  // A visible focus ring on a tool card reached by Tab.
  const card = page.getByRole('link', { name: /Convert image/ }).last();
  await card.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(card).toBeFocused();
  const outline = await card.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});

test('a visitor’s tool page and its sign-in dialog have no serious accessibility violations', async ({
  strictPage: page,
}) => {
  await expectAccessible(page, '/convert');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'photo.gif',
    mimeType: 'image/gif',
    buffer: Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'),
  });
  await page.getByRole('button', { name: 'Convert to PNG' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in to continue' });
  await expect(dialog.getByRole('textbox', { name: 'Email' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('tab', { name: 'Sign up' }).click();
  expect(await seriousViolations(page)).toEqual([]);
  // Closing gives focus back to the button that opened the dialog.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Convert to PNG' })).toBeFocused();
});
