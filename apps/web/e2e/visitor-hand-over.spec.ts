import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, overflowsHorizontally, test } from './fixtures';
import { accountThroughApi, chooseArabic, field, uniqueEmail } from './helpers';

/**
 * A visitor prepares work on a tool page, is asked to log in or sign up in a dialog
 * when sending it, and the same work runs afterwards without choosing the file again.
 */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

const png = () =>
  sharp({
    create: { width: 64, height: 48, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer();

type Account = { email: string; password: string };

/** Logs in from the open dialog, which then closes. */
async function logInFromDialog(dialog: Locator, { email, password }: Account) {
  await field(dialog, 'Email').fill(email);
  await field(dialog, 'Password').fill(password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await expect(dialog).toBeHidden();
}

/** Counts the requests that send a file to the convert tool. */
function convertPosts(page: Page) {
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/convert')
      posts.push(req.url());
  });
  return posts;
}

/** On /convert as a visitor: one PNG chosen, WEBP picked, sent; the dialog opens. */
async function prepareAndSend(page: Page, formatLabel: string, submit: string) {
  await page.goto('/convert');
  await expect(page).toHaveURL(/\/convert$/);
  return chooseAndSend(page, formatLabel, submit);
}

/** On the convert page: one PNG chosen, WEBP picked, sent. */
async function chooseAndSend(page: Page, formatLabel: string, submit: string) {
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await png() });
  await page.getByRole('textbox', { name: formatLabel }).click();
  await page.getByRole('option', { name: 'WEBP', exact: true }).click();
  await page.getByRole('button', { name: submit }).click();
  return page.getByRole('dialog');
}

async function expectWebp(page: Page, linkName: string | RegExp) {
  const link = page.getByRole('link', { name: linkName });
  await expect(link).toBeVisible({ timeout: 20_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const meta = await sharp(readFileSync((await download.path())!)).metadata();
  expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
}

test('a visitor converts after logging in from the dialog, without choosing the file again', async ({
  strictPage: page,
}) => {
  const { email, password } = await accountThroughApi(page);
  const posts = convertPosts(page);
  await expect(page.getByText('Running it asks you to log in or sign up')).toHaveCount(0);
  const dialog = await prepareAndSend(page, 'Convert to', 'Convert to WEBP');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Log in to continue' })).toBeVisible();
  // Nothing was sent before the visitor had an account.
  expect(posts).toEqual([]);

  // Keyboard: the email field has the focus, it stays inside the dialog, and Escape closes it
  // with the work still there.
  await expect(field(dialog, 'Email')).toBeFocused();
  for (let i = 0; i < 12; i += 1) await page.keyboard.press('Tab');
  expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  await page.getByRole('button', { name: 'Convert to WEBP' }).click();

  await logInFromDialog(dialog, { email, password });
  await expectWebp(page, 'Download photo.webp');
  expect(posts).toHaveLength(1);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  // Now signed in, the page shows the uses left instead of the visitor's line.
  await expect(page.getByTestId('quota-line')).toBeVisible();
});

test('the dialog focuses the email field even when its forms arrive after it opened', async ({
  strictPage: page,
}) => {
  // The forms' script is held until the dialog is open, as on a slow network.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/account-gate-forms-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const dialog = await prepareAndSend(page, 'Convert to', 'Convert to WEBP');
  await expect(dialog.getByRole('heading', { name: 'Log in to continue' })).toBeVisible();
  await expect(field(dialog, 'Email')).toHaveCount(0);
  release();
  await expect(field(dialog, 'Email')).toBeFocused();
});

test.describe('a session that ends on the server', () => {
  test.use({ expectedHttpErrors: ['401 /api/convert', '401 /api/user/stats'] });

  test('turns the user back into a visitor, and the dialog carries the work on', async ({
    strictPage: page,
  }) => {
    const { email, password } = await accountThroughApi(page);
    await page.goto('/login');
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill(password);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await page.getByRole('banner').getByRole('link', { name: 'Convert' }).click();
    await expect(page.getByTestId('quota-line')).toBeVisible();
    // As if the 7 days had passed while the page was open: the server no longer takes the token.
    await page.evaluate(() => localStorage.setItem('token', 'an.expired.token'));
    const posts = convertPosts(page);
    const dialog = await chooseAndSend(page, 'Convert to', 'Convert to WEBP');
    await expect(page.getByText('Please log in to continue.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    // Sending again asks for the account, then runs the same file.
    await page.getByRole('button', { name: 'Convert to WEBP' }).click();
    await logInFromDialog(dialog, { email, password });
    await expectWebp(page, 'Download photo.webp');
    expect(posts).toHaveLength(2);
  });
});

test('a visitor signs up from the dialog and the conversion follows', async ({
  strictPage: page,
}) => {
  const posts = convertPosts(page);
  const dialog = await prepareAndSend(page, 'Convert to', 'Convert to WEBP');
  await dialog.getByRole('tab', { name: 'Sign up' }).click();
  await field(dialog, 'Name').fill('Grace Hopper');
  await field(dialog, 'Email').fill(uniqueEmail());
  await field(dialog, 'Password').fill('sign-up password 1');
  await field(dialog, 'Confirm password').fill('sign-up password 1');
  await field(dialog, 'What is your favorite book?').fill('Middlemarch');
  await field(dialog, 'What is your favorite meal?').fill('Ratatouille');
  expect(posts).toEqual([]);
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog).toBeHidden();
  await expectWebp(page, 'Download photo.webp');
  expect(posts).toHaveLength(1);
  await expect(page).toHaveURL(/\/convert$/);
});

test('in Arabic at 375 px the dialog fits, reads right to left, and the work continues', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { email, password } = await accountThroughApi(page);
  await page.goto('/');
  await chooseArabic(page);
  const dialog = await prepareAndSend(page, 'التحويل إلى', 'تحويل إلى WEBP');
  await expect(dialog.getByRole('heading', { name: 'سجّل الدخول للمتابعة' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  expect(await overflowsHorizontally(page)).toBe(false);
  await page.screenshot({
    path: `${SCREENSHOTS}/visitor-dialog-ar-375.png`,
    animations: 'disabled',
  });
  await dialog.getByRole('tab', { name: 'إنشاء حساب' }).click();
  expect(await overflowsHorizontally(page)).toBe(false);
  await page.screenshot({
    path: `${SCREENSHOTS}/visitor-dialog-signup-ar-375.png`,
    animations: 'disabled',
  });
  await dialog.getByRole('tab', { name: 'تسجيل الدخول' }).click();
  // The visible tab's panel: the other form stays mounted (and keeps what was typed).
  const panel = dialog.getByRole('tabpanel');
  await panel.locator('input[type="email"]').fill(email);
  await panel.locator('input[type="password"]').fill(password);
  await panel.getByRole('button', { name: 'تسجيل الدخول' }).click();
  await expect(dialog).toBeHidden();
  await expectWebp(page, /photo\.webp/);
});

test('a visitor’s batch starts after logging in, with the files still chosen', async ({
  strictPage: page,
}) => {
  const { email, password } = await accountThroughApi(page);
  await page.goto('/convert');
  const buffer = await png();
  await page.locator('input[type="file"]').setInputFiles([
    { name: 'one.png', mimeType: 'image/png', buffer },
    { name: 'two.png', mimeType: 'image/png', buffer },
  ]);
  await expect(page.getByText('Log in or sign up to run this batch')).toBeVisible();
  await page.getByTestId('batch-start').click();
  const dialog = page.getByRole('dialog');
  await logInFromDialog(dialog, { email, password });
  const rows = page.getByTestId('batch-row');
  await expect(rows.nth(0)).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'done');
});
