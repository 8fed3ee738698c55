import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, overflowsHorizontally, test } from './fixtures';
import {
  accountThroughApi,
  chooseArabic,
  field,
  logInAsAdmin,
  planId,
  signUp,
  uniqueEmail,
} from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

async function choosePlan(page: Page, plan: 'Developer' | 'Business', cycle: 'Monthly' | 'Annual') {
  await page.goto('/plans');
  const card = page.locator('[data-testid="plan-card"]', { hasText: plan });
  await card.getByRole('link', { name: 'Select' }).click();
  await expect(page).toHaveURL(/\/subscribe\?planId=/);
  await expect(page.getByRole('heading', { name: plan })).toBeVisible();
  await page.getByText(cycle, { exact: false }).first().click();
}

async function payWith(page: Page, cardNumber: string) {
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByText('Payments are in test mode').first()).toBeVisible();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay / }).click();
}

test('a whole sandbox purchase: plans, subscribe, card, success, then Developer with 10 uses', async ({
  strictPage: page,
}) => {
  const email = uniqueEmail();
  await signUp(page, email, 'purchase password 1');
  await expect(
    page.getByRole('banner').getByText(/^Test mode: payments are simulated/),
  ).toBeVisible();
  await choosePlan(page, 'Developer', 'Monthly');
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await payWith(page, '4242 4242 4242 4242');

  await expect(page).toHaveURL(/\/success$/);
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByText(/Taking you to your dashboard in \d s/)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  await expect(page.getByText('Developer', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('usage-modify-rotate')).toHaveText('0 of 10 used');

  await page.goto('/payment-history');
  await page.getByRole('button', { name: /\$4\.99/ }).click();
  await expect(page.getByText('VISA ending in 4242')).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toBeVisible();

  // Cancel from the dashboard: it stays until the end of the period.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText(/subscription ends on .* It will not renew/)).toBeVisible();
});

test('an annual purchase: a declined card stays on the checkout with the reason, another card pays', async ({
  page,
}) => {
  await signUp(page, uniqueEmail(), 'annual password 1');
  await choosePlan(page, 'Business', 'Annual');
  await expect(page.getByText('Save 20% with annual billing')).toBeVisible();
  await page.getByRole('button', { name: 'Pay $67.10' }).click();
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toContainText('Your card was declined');
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  // The form is kept: only the card changes.
  await expect(page.getByLabel('Name on card')).toHaveValue('Ada Lovelace');
  // Another number is refused on the form too, and the checkout stays open for the right card.
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('alert')).toContainText('This card was not accepted');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success$/);
  await page.goto('/payment-history');
  await expect(page.getByText('Annual · Business')).toBeVisible();
});

test('an admin filters payments and sees the total collected', async ({ strictPage: page }) => {
  const email = uniqueEmail();
  await signUp(page, email, 'admin filter password 1');
  await choosePlan(page, 'Developer', 'Monthly');
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/success$/);
  await page.evaluate(() => localStorage.removeItem('token'));

  await logInAsAdmin(page);
  await page.goto('/admin/payment-history');
  await field(page, 'User email').fill(email);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('$4.99').first()).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await field(page, 'User email').fill('nobody-at-all@example.com');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No payments match these filters.')).toBeVisible();
});

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`payment pages fit at ${width}px in ${language}`, async ({ strictPage: page }) => {
      await signUp(page, uniqueEmail(), 'layout payments 1');
      await page.setViewportSize({ width, height: 900 });
      if (language === 'ar') {
        await chooseArabic(page);
      }
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/plans');
      await page
        // Seeded plan names are translated (decision 015).
        .locator('[data-testid="plan-card"]', {
          hasText: language === 'en' ? 'Developer' : 'المطوّر',
        })
        .getByRole('link')
        .click();
      await expect(page).toHaveURL(/\/subscribe/);
      const pay = page.getByRole('button', { name: language === 'en' ? 'Pay $4.99' : /ادفع/ });
      await expect(pay).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/subscribe-${language}-${width}.png`,
        fullPage: true,
      });
      await pay.click();
      await expect(page).toHaveURL(/\/sandbox\/checkout\//);
      await expect(page.locator('input[autocomplete="cc-number"]')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({
        path: `${SCREENSHOTS}/checkout-${language}-${width}.png`,
        fullPage: true,
      });
    });
  }
}

test("a checkout's link opens it without a sign-in on this site, once; its cancel leads back", async ({
  strictPage: page,
  expectedHttpErrors,
}) => {
  // As a client on another site does: sign in there, start the checkout through the API.
  const { email, password } = await accountThroughApi(page);
  const login = await page.request.post('/api/auth/login', { data: { email, password } });
  const auth = { authorization: `Bearer ${(await login.json()).token}` };
  const plans = (await (await page.request.get('/api/subscriptions/plans')).json()) as {
    _id: string;
    name: string;
  }[];
  const developer = plans.find((plan) => plan.name === 'Developer')!._id;
  const start = async () => {
    const res = await page.request.post('/api/subscriptions/create-checkout-session', {
      headers: auth,
      data: { planId: developer, billingType: 'monthly' },
    });
    return (await res.json()).url as string;
  };

  // This browser never signed in here: the link alone opens the checkout.
  await page.goto(await start());
  await page.getByRole('link', { name: 'Cancel and go back' }).click();
  await expect(page).toHaveURL(/\/cancel$/);

  const link = await start();
  await page.goto(link);
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  // Spent: opened again, the link says so.
  expectedHttpErrors.push(`401 ${new URL(link).pathname.replace('/sandbox', '/api/sandbox')}`);
  await page.goto(link);
  await expect(page.getByText('This checkout link has been used or has expired.')).toBeVisible();
});

test('/cancel offers the plans again', async ({ strictPage: page }) => {
  await page.goto('/cancel');
  await page.getByRole('link', { name: 'Choose a plan again' }).click();
  await expect(page).toHaveURL(/\/plans$/);
});

for (const width of [375, 1280]) {
  test(`the test cards read left to right in Arabic at ${width}px`, async ({
    strictPage: page,
  }) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, uniqueEmail(), 'arabic card password 1');
    await chooseArabic(page);
    await page.goto(`/subscribe?planId=${await planId(page, 'Developer')}`);
    await page.getByRole('button', { name: /^ادفع/ }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    const hint = page.getByText(/بطاقات الاختبار/);
    await expect(hint).toBeVisible();
    // Where each group is drawn: in order, left to right, whatever the page's direction.
    const order = await hint.evaluate((element) => {
      const text = element.firstChild as Text;
      const left = (group: string, from = 0) => {
        const range = document.createRange();
        const at = text.data.indexOf(group, from);
        range.setStart(text, at);
        range.setEnd(text, at + group.length);
        const box = range.getBoundingClientRect();
        return { left: box.left, top: box.top };
      };
      const declined = text.data.indexOf('4000');
      return {
        paying: [left('4242'), left('4242', text.data.indexOf('4242') + 5)],
        declined: [left('4000', declined), left('0002', declined)],
      };
    });
    // Each number on one line, its groups in order from the left.
    for (const [first, last] of [order.paying, order.declined]) {
      expect(first!.top).toBe(last!.top);
      expect(first!.left).toBeLessThan(last!.left);
    }
    await expect(page.getByLabel('رقم البطاقة')).toHaveAttribute('dir', 'ltr');
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-ar-${width}.png`, fullPage: true });
  });
}
