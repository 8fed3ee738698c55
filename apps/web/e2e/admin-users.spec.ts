import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from './e2e-env';
import { expect, overflowsHorizontally, test } from './fixtures';
import {
  accountThroughApi,
  apiFromPage,
  chooseArabic,
  field,
  logInAsAdmin,
  rotateFromPage,
  signUp,
  uniqueEmail,
} from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

test('an admin suspends, reactivates, grants a plan and changes a role, each confirmed', async ({
  strictPage: page,
}) => {
  const email = uniqueEmail();
  await signUp(page, email, 'managed password 1');
  await page.evaluate(() => localStorage.removeItem('token'));
  await logInAsAdmin(page);
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search by name or email' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);

  const act = async (item: string, confirm = true) => {
    await row.getByRole('button', { name: 'Actions for Marie Curie' }).click();
    await page.getByRole('menuitem', { name: item }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    if (confirm) await dialog.getByRole('button', { name: 'Confirm' }).click();
    return dialog;
  };

  await act('Suspend');
  await expect(row.getByText('Suspended')).toBeVisible();
  await act('Reactivate');
  await expect(row.getByText('Suspended')).toHaveCount(0);

  const dialog = await act('Grant a plan', false);
  await dialog.getByRole('textbox', { name: 'Plan' }).click();
  await page.getByRole('option', { name: 'Developer' }).click();
  await dialog.getByRole('textbox', { name: 'Months' }).fill('2');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(row).toContainText(/Developer until/);

  await act('Make admin');
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
});

// Choosing Arabic is saved to the signed-in account, the shared admin's too: give English back.
test.afterEach(async ({ page }) => {
  if (await page.evaluate(() => localStorage.getItem('token')))
    await apiFromPage(page, '/api/user/preferred-language', { language: 'en' });
});

/** Signs a user up through the API (the sign-up form has no country field). */
const register = async (page: Page, name: string, country?: string) =>
  (await accountThroughApi(page, { name, country })).email;

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar'] as const) {
    test(`admin users at ${width}px in ${language}: ${width < 576 ? 'one card per user' : 'a table'}, nothing sideways, countries by name`, async ({
      strictPage: page,
    }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      const marker = `Skłodowska${Date.now()}${Math.floor(Math.random() * 1e4)}`;
      await register(page, `${marker} Japan`, 'JP');
      await register(page, `${marker} Nowhere`);
      await logInAsAdmin(page);
      if (language === 'ar') await chooseArabic(page);
      await page.goto('/admin/users');
      await page.getByRole('textbox').first().fill(marker);
      const japan = language === 'ar' ? 'اليابان' : 'Japan';
      const cards = page.getByTestId('admin-user-card');
      if (width < 576) {
        await expect(cards).toHaveCount(2);
        await expect(page.getByRole('table')).toBeHidden();
        const card = cards.filter({ hasText: `${marker} Japan` });
        await expect(card).toContainText(japan);
        await expect(cards.filter({ hasText: `${marker} Nowhere` })).toContainText('—');
        // The actions are on screen, not past a sideways scroll.
        const actions = card.getByRole('button', { name: new RegExp(marker) });
        const box = (await actions.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      } else {
        await expect(cards.first()).toBeHidden();
        const row = page.getByRole('row').filter({ hasText: `${marker} Japan` });
        await expect(row).toContainText(japan);
        await expect(page.getByRole('row').filter({ hasText: `${marker} Nowhere` })).toContainText(
          '—',
        );
      }
      await expect(page.getByText(/\bNA\b/)).toHaveCount(0);
      expect(await overflowsHorizontally(page)).toBe(false);
      const scrollers = await page.evaluate(
        () =>
          [...document.querySelectorAll('main *')].filter(
            (el) =>
              el.scrollWidth > el.clientWidth + 1 &&
              ['auto', 'scroll'].includes(getComputedStyle(el).overflowX),
          ).length,
      );
      expect(scrollers).toBe(0);
      await page.screenshot({
        path: `${SCREENSHOTS}/admin-users-cards-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}

for (const language of ['en', 'ar'] as const) {
  test(`a granted plan says granted until, with no cancel (${language})`, async ({
    strictPage: page,
  }) => {
    const email = uniqueEmail();
    await signUp(page, email, 'granted password 1');
    await page.evaluate(() => localStorage.removeItem('token'));
    await logInAsAdmin(page);
    await page.goto('/admin/users');
    await page.getByRole('textbox', { name: 'Search by name or email' }).fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: 'Actions for Marie Curie' }).click();
    await page.getByRole('menuitem', { name: 'Grant a plan' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: 'Developer' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(row).toContainText(/Developer until/);

    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto('/login');
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill('granted password 1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard$/);
    if (language === 'ar') await chooseArabic(page);
    const summary = page.getByTestId('subscription-summary');
    await expect(summary).toContainText(
      language === 'ar' ? 'من قِبل المسؤول حتى' : 'granted by an administrator until',
    );
    await expect(page.getByText(language === 'ar' ? 'ممنوحة حتى' : 'Granted until')).toBeVisible();
    await expect(page.getByRole('button', { name: /cancel|إلغاء/i })).toHaveCount(0);
    await page.screenshot({ path: `${SCREENSHOTS}/granted-${language}.png`, fullPage: true });
  });
}

/** Suspends a user through the API, as an admin in another session. */
async function suspend(page: Page, email: string) {
  const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  const found = await page.request.get(`/api/admin/users?search=${encodeURIComponent(email)}`, {
    headers,
  });
  const [user] = await found.json();
  const res = await page.request.patch(`/api/admin/users/${user._id}`, {
    headers,
    data: { suspended: true },
  });
  expect(res.status()).toBe(204);
}

for (const language of ['en', 'ar'] as const) {
  for (const width of [375, 1280]) {
    test(`a suspended user with an open session is told so, and whom to contact (${language}, ${width}px)`, async ({
      page,
    }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      const email = uniqueEmail();
      await signUp(page, email, 'suspended password 1');
      if (language === 'ar') await chooseArabic(page);
      await suspend(page, email);
      // The open session's next request is refused: signed out, with the reason.
      await page.reload();
      await expect(page).toHaveURL(/\/login/);
      const notice = page.getByRole('alert').filter({
        hasText:
          language === 'ar'
            ? 'هذا الحساب موقوف. تواصل مع مسؤول الموقع.'
            : 'This account is suspended. Contact the site admin.',
      });
      await expect(notice).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({ path: `${SCREENSHOTS}/suspended-${language}-${width}.png` });
      // It stays while the user looks around, until someone signs in.
      await page.goto('/plans');
      await expect(notice).toBeVisible();
    });
  }
}

for (const width of [375, 1280]) {
  test(`the admin chart is mirrored in Arabic, its names in order (${width}px)`, async ({
    strictPage: page,
  }) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, uniqueEmail(), 'chart password 1');
    expect(await rotateFromPage(page)).toEqual([200]);
    await page.evaluate(() => localStorage.removeItem('token'));
    await logInAsAdmin(page);
    await chooseArabic(page);
    await page.goto('/admin');
    const chart = page.locator('.recharts-wrapper');
    await expect(chart).toBeVisible();
    const layout = await chart.evaluate((wrapper) => {
      const ticks = [
        ...wrapper.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick text'),
      ];
      const bars = [...wrapper.querySelectorAll('.recharts-bar-rectangle path')];
      return {
        names: ticks.map((tick) => tick.textContent ?? ''),
        namesLeft: Math.min(...ticks.map((tick) => tick.getBoundingClientRect().left)),
        namesRight: Math.max(...ticks.map((tick) => tick.getBoundingClientRect().right)),
        barsRight: Math.max(...bars.map((bar) => bar.getBoundingClientRect().right)),
        chartRight: wrapper.getBoundingClientRect().right,
      };
    });
    // Names whole, on the right of the bars (a bar once covered a name's first letters) and
    // inside the chart, each isolated right to left.
    expect(layout.namesLeft).toBeGreaterThan(layout.barsRight);
    expect(layout.namesRight).toBeLessThanOrEqual(layout.chartRight);
    expect(layout.names.length).toBeGreaterThan(0);
    for (const name of layout.names) expect(name).toMatch(/^\u2067.*\u2069$/);
    await page.screenshot({ path: `${SCREENSHOTS}/admin-chart-ar-${width}.png`, fullPage: true });
  });
}
