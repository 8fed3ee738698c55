import { E2E_ADMIN } from './e2e-env';
import { field, signUp, uniqueEmail as unique } from './helpers';
import { expect, test } from './fixtures';

test('sign up, log out, log in, then recover the password', async ({ strictPage: page }) => {
  const email = unique();
  await signUp(page, email, 'first password 1');
  await expect(page).toHaveURL(/\/dashboard$/);
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Dashboard' })).toBeVisible();

  // The session survives a reload (token checked with /api/auth/me).
  await page.reload();
  await expect(banner.getByRole('link', { name: 'Dashboard' })).toBeVisible();

  await banner.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(banner.getByRole('link', { name: 'Log in' })).toBeVisible();

  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('first password 1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await banner.getByRole('button', { name: 'Log out' }).click();

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  // The login form stays on screen while the recovery page's code loads: its Email field has
  // the same name, so the recovery page is awaited before typing.
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await field(page, 'Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await field(page, 'What is your favorite book?').fill('  MIDDLEMARCH ');
  await field(page, 'What is your favorite meal?').fill('ratatouille');
  await page.getByRole('button', { name: 'Check answers' }).click();
  await field(page, 'New password').fill('second password 2');
  await field(page, 'Confirm password').fill('second password 2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status')).toContainText('password has been reset');

  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('second password 2');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('sign-up checks the form before sending it', async ({ strictPage: page }) => {
  await page.goto('/signup');
  await field(page, 'Password').fill('one password');
  await field(page, 'Confirm password').fill('another password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await expect(page.getByText('This field is required.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('wrong credentials show a translated error', async ({ page }) => {
  // A 401 from the API is expected here, so this test uses the plain page.
  await page.goto('/login');
  await field(page, 'Email').fill('nobody@example.com');
  await field(page, 'Password').fill('not a password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
});

test('guards send visitors to login and back after signing in', async ({ strictPage: page }) => {
  // Tool pages are open to visitors (they sign in when they send work: visitor-hand-over).
  await page.goto('/rotate');
  await expect(page).toHaveURL(/\/rotate$/);
  await expect(page.getByText('Running it asks you to log in or sign up')).toBeVisible();
  await page.goto('/dashboard');
  // Where to go once signed in is in the address: a reload keeps it.
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  const email = unique();
  await signUp(page, email, 'guard password 1');
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await page.goto('/payment-history');
  await expect(page).toHaveURL(/\/login\?next=%2Fpayment-history$/);
  await page.reload();
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('guard password 1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/payment-history$/);
  // A signed-in user is not an admin.
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/login$|\/dashboard$/);
});

test('an admin lands on /admin and sees only the admin navigation', async ({
  strictPage: page,
}) => {
  await page.goto('/login');
  await field(page, 'Email').fill(E2E_ADMIN.email);
  await field(page, 'Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const nav = page.getByRole('banner').getByRole('navigation');
  await expect(nav.getByRole('link')).toHaveText([
    'Dashboard',
    'Users',
    'Plans management',
    'Payment history',
  ]);
  await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Features' })).toHaveCount(0);
  // The user dashboard is not for admins.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/admin$/);
});

test('a signed-in user’s language choice is saved to their account', async ({
  strictPage: page,
}) => {
  const email = unique();
  await signUp(page, email, 'language password');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Language' }).click();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/user/preferred-language') && r.ok(),
  );
  await page.getByRole('radio', { name: 'Deutsch' }).check();
  await saved;
  // A fresh browser state that only has the token: the language comes from the account.
  await page.evaluate(() => localStorage.removeItem('refract.language'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
