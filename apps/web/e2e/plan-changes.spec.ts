import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, overflowsHorizontally, test } from './fixtures';
import {
  apiFromPage,
  buy,
  chooseArabic,
  logInAsAdmin,
  planId,
  signUp,
  uniqueEmail,
} from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

test('a downgrade asks first, waits for the end of the period, and can be undone', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'downgrade password 1');
  await buy(page, await planId(page, 'Developer'));
  await page.goto('/plans');
  await expect(page.getByTestId('subscription-summary')).toHaveText(
    /Your Developer subscription \(Monthly\) renews on /,
  );
  await page
    .locator('[data-testid="plan-card"]', { hasText: 'Basic' })
    .getByRole('link', { name: 'Start free' })
    .click();
  await expect(page.getByText(/You keep Developer until .*; then you move to Basic/)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
  await page.getByRole('button', { name: /^Switch to Basic on / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('You can undo this until then.');
  await dialog.getByRole('button', { name: /^Switch to Basic on / }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('subscription-summary')).toHaveText(
    /^Developer until .*, then Basic\.$/,
  );
  // Still Developer's quotas until then.
  await expect(page.getByTestId('usage-modify-rotate')).toHaveText('0 of 10 used');
  await page.getByRole('button', { name: 'Keep Developer' }).click();
  await expect(page.getByTestId('subscription-summary')).toHaveText(/renews on/);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
});

test('an upgrade goes to checkout at once', async ({ page }) => {
  await signUp(page, uniqueEmail(), 'upgrade password 1');
  await buy(page, await planId(page, 'Developer'));
  await page.goto('/plans');
  await page
    .locator('[data-testid="plan-card"]', { hasText: 'Business' })
    .getByRole('link', { name: 'Select' })
    .click();
  await page.getByRole('button', { name: 'Pay $6.99' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
});

test('deleting a plan with a subscriber archives it; the admin plan has no Delete', async ({
  page,
}) => {
  await logInAsAdmin(page);
  const name = `Legacy ${Date.now()}`;
  const created = await apiFromPage(page, '/api/subscriptions/plans', {
    name,
    monthlyFee: 2,
    annualFee: 20,
    features: [],
    services: (await apiFromPage(page, '/api/subscriptions/plans')).body[0].services,
  });
  expect(created.status).toBe(201);
  await page.evaluate(() => localStorage.removeItem('token'));
  await signUp(page, uniqueEmail(), 'archive password 1');
  await buy(page, created.body._id);
  await page.evaluate(() => localStorage.removeItem('token'));

  await logInAsAdmin(page);
  await page.goto('/admin/plans');
  await expect(page.getByRole('button', { name: 'Delete admin' })).toHaveCount(0);
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'was archived' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Archived plans' })).toBeVisible();
  // Apart: in the archived table, with Edit and no Delete.
  await expect(page.getByRole('button', { name: `Edit ${name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Delete ${name}` })).toHaveCount(0);
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto('/plans');
  await expect(page.locator('[data-testid="plan-card"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="plan-card"]', { hasText: name })).toHaveCount(0);
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`the scheduled downgrade fits at ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      await signUp(page, uniqueEmail(), 'downgrade layout 1');
      await buy(page, await planId(page, 'Business'));
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') await chooseArabic(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto(`/subscribe?planId=${await planId(page, 'Developer')}`);
      // Seeded plan names are translated here too: the notice, the button and the question.
      const schedule = page
        .getByRole('button')
        .filter({ hasText: language === 'en' ? 'Developer' : 'المطوّر' })
        .first();
      await expect(schedule).toBeVisible();
      if (language === 'ar') {
        await expect(page.getByRole('status')).toContainText('الأعمال');
        await expect(page.getByRole('main')).not.toContainText(/Developer|Business/);
      }
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/downgrade-${language}-${width}.png`,
        fullPage: true,
      });
      await schedule.click();
      await page.getByRole('dialog').getByRole('button').last().click();
      await expect(page).toHaveURL(/\/dashboard$/);
      // Seeded plan names are translated (decision 015).
      await expect(page.getByTestId('subscription-summary')).toContainText(
        language === 'en' ? 'Developer' : 'المطوّر',
      );
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/scheduled-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}
