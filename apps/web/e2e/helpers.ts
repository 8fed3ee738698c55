import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN } from './e2e-env';

/** A text field by its accessible name (Mantine's required asterisk is not part of it). */
export const field = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

/** The pages anyone may open, signed in or not. */
export const PUBLIC_PAGES: readonly string[] = [
  '/',
  '/login',
  '/signup',
  '/forgot-password',
  '/plans',
  '/terms-conditions',
  '/privacy-policy',
  '/refund-policy',
  '/success',
  '/cancel',
];

export const uniqueEmail = () => `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export async function signUp(page: Page, email: string, password: string) {
  await page.goto('/signup');
  await field(page, 'Name').fill('Marie Curie');
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await field(page, 'Confirm password').fill(password);
  await field(page, 'What is your favorite book?').fill('Middlemarch');
  await field(page, 'What is your favorite meal?').fill('Ratatouille');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** An account made through the API, so the browser stays a visitor; its email and password. */
export async function accountThroughApi(
  page: Page,
  data: { name?: string; country?: string } = {},
) {
  const email = uniqueEmail();
  const password = 'api account password 1';
  const res = await page.request.post('/api/auth/register', {
    data: {
      name: 'Ada Lovelace',
      ...data,
      email,
      password,
      securityQuestions: [
        { question: 'What is your favorite book?', answer: 'middlemarch' },
        { question: 'What is your favorite meal?', answer: 'ratatouille' },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password };
}

export async function logInAsAdmin(page: Page) {
  await page.goto('/login');
  await field(page, 'Email').fill(E2E_ADMIN.email);
  await field(page, 'Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/admin$/);
}

/** Calls the API from the page with the stored session token. */
export function apiFromPage(page: Page, path: string, body?: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${localStorage.getItem('token')}`,
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { path, body },
  );
}

/** A 1×1 PNG. */
export const DOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Rotates a 1×1 PNG through the API, `times` over: each success is one charged use. */
export function rotateFromPage(page: Page, times = 1) {
  return page.evaluate(
    async ({ png, times }) => {
      const statuses: number[] = [];
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      for (let i = 0; i < times; i += 1) {
        const form = new FormData();
        form.append('image', new Blob([bytes], { type: 'image/png' }), 'dot.png');
        const res = await fetch('/api/rotate', {
          method: 'POST',
          headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
          body: form,
        });
        statuses.push(res.status);
      }
      return statuses;
    },
    { png: DOT_PNG, times },
  );
}

/**
 * Waits until React has taken `control` over: on a prerendered page the HTML's button is there
 * before the scripts run, and a click on it then does nothing (a busy CI lost one that way).
 */
export async function whenHydrated(control: Locator) {
  await expect
    .poll(() => control.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__react'))))
    .toBe(true);
  return control;
}

/** Chooses Arabic in the language menu, the way a user does, and waits for the page to mirror. */
export async function chooseArabic(page: Page) {
  await (await whenHydrated(page.getByRole('button', { name: 'Language' }))).click();
  await page.getByRole('radio', { name: 'العربية' }).check();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
}

/** Buys a plan through the API and the sandbox's test card, as the checkout page does. */
export async function buy(page: Page, planId: string) {
  const { body } = await apiFromPage(page, '/api/subscriptions/create-checkout-session', {
    planId,
    billingType: 'monthly',
  });
  const id = new URL(body.url).pathname.split('/').pop();
  const paid = await apiFromPage(page, `/api/sandbox/checkout/${id}/pay`, {
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/39',
    cvc: '123',
    name: 'Ada',
  });
  expect(paid.body).toEqual({ redirect: '/success' });
}

export async function planId(page: Page, name: string) {
  const { body } = await apiFromPage(page, '/api/subscriptions/plans');
  return (body as { _id: string; name: string }[]).find((p) => p.name === name)!._id;
}

/** Sets the signed-in user's language, on the server and in this browser, as the menu would. */
export async function useLanguage(page: Page, language: string) {
  await page.evaluate((lang) => localStorage.setItem('refract.language', lang), language);
  await page.evaluate(
    (lang) =>
      fetch('/api/user/preferred-language', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${localStorage.getItem('token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ language: lang }),
      }),
    language,
  );
}
