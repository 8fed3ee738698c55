import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { LANGUAGES, TOOLS, type Language } from '@refract/contracts';
import { E2E_ADMIN } from './e2e-env';
import { expect, test } from './fixtures';
import { PUBLIC_PAGES, uniqueEmail } from './helpers';

/**
 * Every page, in every language, at 375 px: none may be wider than the screen. The full-page
 * screenshots land in test-results/every-page-375/<language>/ for a person to look at; CI,
 * which looks at none, skips their 300 full-page captures (2.6 min at rest, 2.3 without).
 */
const LOOKED_AT = !process.env.CI;
const SHOTS = fileURLToPath(new URL('../../../test-results/every-page-375', import.meta.url));
const WIDTH = 375;

const USER_PAGES = ['/dashboard', '/payment-history', ...TOOLS.map((tool) => tool.route)];
const ADMIN_PAGES = ['/admin', '/admin/users', '/admin/plans', '/admin/payment-history'];

interface Account {
  token: string;
  api: APIRequestContext;
}

async function signedIn(baseURL: string, path: string, body: object): Promise<Account> {
  const anonymous = await apiRequest.newContext({ baseURL });
  const res = await anonymous.post(path, { data: body });
  expect(res.ok(), await res.text()).toBe(true);
  const { token } = (await res.json()) as { token: string };
  await anonymous.dispose();
  const api = await apiRequest.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  return { token, api };
}

/** A signed-in user's saved language wins over the stored choice, so it is set first. */
async function useLanguage(account: Account, language: Language) {
  const res = await account.api.post('/api/user/preferred-language', { data: { language } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** A page is settled when its heading is shown and nothing is loading any more. */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/**
 * Controls and text that stick out past the screen's edges where no scrollbar reaches them
 * (a table cut off by its card), as "button Edit Basic".
 */
function outOfReach(): string[] {
  const scrollsSideways = (element: Element) => {
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const selector = 'button, a, input, textarea, th, td, img, h1, h2, h3, label, p';
  return [...document.querySelectorAll(selector)]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      const inside = box.left >= -1 && box.right <= window.innerWidth + 1;
      return !inside && !scrollsSideways(element);
    })
    .map((element) => `${element.tagName.toLowerCase()} ${element.textContent?.slice(0, 40)}`);
}

const photo = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#5b8bd0' } })
    .jpeg()
    .toBuffer();

test.describe.configure({ timeout: 240_000 });

let user: Account;
let admin: Account;
let checkoutPath: string;
let subscribePath: string;

test.beforeAll(async ({ baseURL }) => {
  user = await signedIn(baseURL!, '/api/auth/register', {
    email: uniqueEmail(),
    password: 'every page password 1',
    name: 'Marie Curie',
    securityQuestions: [
      { question: 'What is your favorite book?', answer: 'Middlemarch' },
      { question: 'What is your favorite meal?', answer: 'Ratatouille' },
    ],
  });
  admin = await signedIn(baseURL!, '/api/auth/login', E2E_ADMIN);
  // One use, so the admin dashboard draws its usage chart.
  const converted = await user.api.post('/api/convert', {
    multipart: {
      format: 'webp',
      image: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await photo() },
    },
  });
  expect(converted.ok(), await converted.text()).toBe(true);
  const plans = (await (await user.api.get('/api/subscriptions/plans')).json()) as {
    _id: string;
    monthlyFee: number;
  }[];
  const paid = plans.find((plan) => plan.monthlyFee > 0)!;
  subscribePath = `/subscribe?planId=${paid._id}`;
  const checkout = await user.api.post('/api/subscriptions/create-checkout-session', {
    data: { planId: paid._id, billingType: 'monthly' },
  });
  checkoutPath = new URL(((await checkout.json()) as { url: string }).url, baseURL).pathname;
});

test.afterAll(async () => {
  // The admin is shared with every later spec: give it back its English.
  if (admin) await useLanguage(admin, 'en');
  await user?.api.dispose();
  await admin?.api.dispose();
});

for (const language of LANGUAGES) {
  test(`every page fits ${WIDTH} px in ${language}`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: WIDTH, height: 800 },
    });
    await context.addInitScript((lang) => localStorage.setItem('refract.language', lang), language);
    const page = await context.newPage();
    const tooWide: string[] = [];
    mkdirSync(`${SHOTS}/${language}`, { recursive: true });

    async function visit(path: string, prepare?: () => Promise<void>) {
      await page.goto(path);
      await settle(page);
      await prepare?.();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      if (scrollWidth > clientWidth) tooWide.push(`${path}: ${scrollWidth} px`);
      for (const element of await page.evaluate(outOfReach)) tooWide.push(`${path}: ${element}`);
      const name = path === '/' ? 'home' : path.slice(1).replace(/[/?=]/g, '_');
      if (LOOKED_AT)
        await page.screenshot({ path: `${SHOTS}/${language}/${name}.png`, fullPage: true });
    }

    for (const path of [...PUBLIC_PAGES, '/no-such-page']) await visit(path);

    await useLanguage(user, language);
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    for (const path of USER_PAGES) {
      // The watermark's default text is the one thing that grew with the language's words.
      const withPhoto =
        path === '/watermark'
          ? async () => {
              await page.locator('input[type="file"]').setInputFiles({
                name: 'photo.jpg',
                mimeType: 'image/jpeg',
                buffer: await photo(),
              });
              await expect(page.getByRole('img').first()).toBeVisible();
            }
          : undefined;
      await visit(path, withPhoto);
    }
    await visit(subscribePath);
    await visit(checkoutPath);

    await useLanguage(admin, language);
    await page.evaluate((token) => localStorage.setItem('token', token), admin.token);
    for (const path of ADMIN_PAGES) await visit(path);

    await context.close();
    expect(tooWide, `pages wider than ${WIDTH} px, or cut off, in ${language}`).toEqual([]);
  });
}
