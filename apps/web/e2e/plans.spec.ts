import { hasTool, SERVICES } from '@refract/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  accountThroughApi,
  apiFromPage,
  field,
  logInAsAdmin,
  planId,
  rotateFromPage,
  signUp,
  uniqueEmail,
} from './helpers';

test('a Basic user uses a service 3 times, is refused the 4th, and the dashboard shows 3 of 3', async ({
  page,
}) => {
  // The refused 4th call answers 403 on purpose, so this test uses the plain page.
  await signUp(page, uniqueEmail(), 'quota password 1');
  await expect(page).toHaveURL(/\/dashboard$/);
  // The earlier client's way: track, then the tool; each use is charged once, by track, and
  // the tool takes the tracked use.
  for (let i = 1; i <= 3; i += 1) {
    const res = await apiFromPage(page, '/api/user/track', {
      service: 'modify-rotate',
      imageCount: 1,
    });
    expect(res).toMatchObject({ status: 200, body: { used: i, quota: 3 } });
    expect(await rotateFromPage(page)).toEqual([200]);
  }
  const refused = await apiFromPage(page, '/api/user/track', {
    service: 'modify-rotate',
    imageCount: 1,
  });
  expect(refused).toMatchObject({ status: 403, body: { code: 'quota_exceeded', remaining: 0 } });
  expect(refused.body.error).toMatch(/upgrade your plan/i);

  await page.reload();
  await expect(page.getByTestId('usage-modify-rotate')).toHaveText('3 of 3 used');
  await expect(page.getByText('Files processed')).toBeVisible();
  await expect(page.getByText('Basic', { exact: true })).toBeVisible();
});

test('the plans page shows three plans and marks the current one', async ({ strictPage: page }) => {
  await page.goto('/plans');
  const cards = page.getByRole('heading', { level: 2 });
  await expect(cards).toHaveText(['Basic', 'Developer', 'Business']);
  await expect(page.getByRole('link', { name: 'Start free' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Select' })).toHaveCount(2);

  await signUp(page, uniqueEmail(), 'plans password 1');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/plans');
  await expect(page.getByText('Current plan').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Select' }).first()).toHaveAttribute(
    'href',
    /\/subscribe\?planId=/,
  );
});

test('plan cards and the dashboard list only services that have a tool', async ({
  strictPage: page,
}) => {
  const english = (await import('../src/locales/en.json', { with: { type: 'json' } })).default;
  const label = (service: (typeof SERVICES)[number]) => english.services[service];
  await page.goto('/plans');
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(3);
  for (const service of SERVICES) {
    // The menus name the tools too (hidden until opened): only what is on show counts.
    const shown = page.getByText(label(service), { exact: true }).filter({ visible: true });
    if (hasTool(service)) await expect(shown.first(), service).toBeVisible();
    else await expect(shown, service).toHaveCount(0);
  }
  await signUp(page, uniqueEmail(), 'services password 1');
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const service of SERVICES) {
    const row = page.getByTestId(`usage-${service}`);
    if (hasTool(service)) await expect(row, service).toBeVisible();
    else await expect(row, service).toHaveCount(0);
  }
});

test('an admin creates a plan with bulk quotas, edits it and deletes it', async ({
  strictPage: page,
}) => {
  await logInAsAdmin(page);
  await expect(page.getByText('Active subscriptions')).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Plans management' }).click();
  const name = `Studio ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'Monthly fee', exact: true }).fill('12.5');
  await page.getByRole('textbox', { name: 'Annual fee', exact: true }).fill('120');
  await page.getByRole('textbox', { name: 'Monthly quota for all' }).fill('50');
  await page.getByRole('button', { name: 'Apply to all' }).first().click();
  await page.getByRole('textbox', { name: 'Annual quota for all' }).fill('600');
  await page.getByRole('button', { name: 'Apply to all' }).last().click();
  await page.getByRole('button', { name: 'Create plan' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('$12.50');

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await page.getByRole('textbox', { name: 'Monthly fee', exact: true }).fill('15');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(row).toContainText('$15.00');
  await expect(page.getByRole('button', { name: 'Create plan' })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);

  const plans = await apiFromPage(page, '/api/subscriptions/plans');
  expect(plans.body.map((p: { name: string }) => p.name)).not.toContain(name);
});

test('an admin searches the users table', async ({ strictPage: page }) => {
  const email = uniqueEmail();
  await signUp(page, email, 'searchable 12345');
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await logInAsAdmin(page);
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search by name or email' }).fill(email.slice(0, 20));
  // No country given: a dash ("NA" would read as Namibia).
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('—');
});

/** On /plans as a visitor: the plan's Select, which asks them to sign up first. */
async function pickAsVisitor(page: Page, plan: string) {
  await page.goto('/plans');
  const card = page
    .getByTestId('plan-card')
    .filter({ has: page.getByRole('heading', { name: plan }) });
  await card.getByRole('link', { name: 'Select' }).click();
  await expect(page).toHaveURL(/\/signup\?next=%2Fsubscribe%3FplanId%3D/);
}

/** The sign-up form, filled and sent. */
async function signUpWithForm(page: Page) {
  await field(page, 'Name').fill('Marie Curie');
  await field(page, 'Email').fill(uniqueEmail());
  await field(page, 'Password').fill('funnel password 1');
  await field(page, 'Confirm password').fill('funnel password 1');
  await field(page, 'What is your favorite book?').fill('Middlemarch');
  await field(page, 'What is your favorite meal?').fill('Ratatouille');
  await page.getByRole('button', { name: 'Create account' }).click();
}

// /plans is drawn by the server, so a visitor on a slow phone can follow Select before the app
// has started: the plan travels in the link's address, not in the app's memory.
test('a Select followed before any script has run keeps the plan through sign-up to its checkout', async ({
  page,
}) => {
  const scripts = /\/assets\/.*\.js$/;
  await page.route(scripts, (route) => route.abort());
  await pickAsVisitor(page, 'Business');
  await page.unroute(scripts);
  await page.reload();
  await signUpWithForm(page);
  const business = await planId(page, 'Business');
  await expect(page).toHaveURL(`/subscribe?planId=${encodeURIComponent(business)}`);
});

test('a visitor who picks Business signs up and lands on its checkout; a new account is greeted as new', async ({
  strictPage: page,
}) => {
  await pickAsVisitor(page, 'Business');
  await signUpWithForm(page);
  const business = await planId(page, 'Business');
  await expect(page).toHaveURL(`/subscribe?planId=${encodeURIComponent(business)}`);
  await expect(page.getByRole('button', { name: /pay|subscribe/i }).first()).toBeVisible();

  // Signed up without a plan in mind: the dashboard says hello, not "welcome back".
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signUp(page, uniqueEmail(), 'funnel password 2');
  await expect(page.getByText('Welcome, Marie Curie. Your account is ready.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Welcome back, Marie Curie.')).toBeVisible();
});

test('a visitor who picks Developer and logs in from the sign-up page lands on its checkout', async ({
  strictPage: page,
}) => {
  const { email, password } = await accountThroughApi(page);
  await pickAsVisitor(page, 'Developer');
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsubscribe%3FplanId%3D/);
  // The sign-up form, with its own Email field, stays on screen while the log-in page loads.
  await expect(page.getByRole('heading', { name: 'Log in', level: 1 })).toBeVisible();
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const developer = await planId(page, 'Developer');
  await expect(page).toHaveURL(`/subscribe?planId=${encodeURIComponent(developer)}`);
});
