import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, overflowsHorizontally, test } from './fixtures';
import { apiFromPage, field, signUp, uniqueEmail, chooseArabic } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

const LEGAL_PAGES = ['/terms-conditions', '/privacy-policy', '/refund-policy'];

async function shoot(page: Page, path: string, name: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await overflowsHorizontally(page), `${path} overflows`).toBe(false);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** A new account in the given language, made through the API so no form is read in English. */
async function signUpIn(page: Page, language: string) {
  await page.goto('/');
  const registered = await apiFromPage(page, '/api/auth/register', {
    email: uniqueEmail(),
    password: 'public face 1',
    name: 'Ada Lovelace',
    favBook: 'middlemarch',
    favMeal: 'couscous',
  });
  await page.evaluate((token) => localStorage.setItem('token', token), registered.body.token);
  await apiFromPage(page, '/api/user/preferred-language', { language });
}

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar']) {
    test(`home, legal and tool pages fit ${width}px in ${language}`, async ({
      strictPage: page,
    }) => {
      test.setTimeout(90_000);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      await page.addInitScript((lang) => localStorage.setItem('refract.language', lang), language);
      for (const path of ['/', ...LEGAL_PAGES, '/meme-generator']) {
        await shoot(page, path, `${path.slice(1) || 'home'}-${language}-${width}`);
      }
      await signUpIn(page, language);
      for (const path of ['/convert', '/crop', '/compress-video']) {
        await shoot(page, path, `${path.slice(1)}-${language}-${width}`);
      }
    });
  }
}

test('the FAQ keeps one answer open, the first at first, and the open one closes', async ({
  strictPage: page,
}) => {
  await page.goto('/');
  const faq = page.getByRole('region', { name: 'Frequently asked questions' });
  const questions = faq.getByRole('button');
  await expect(questions).toHaveCount(5);
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');
  await questions.nth(2).click();
  await expect(questions.nth(2)).toHaveAttribute('aria-expanded', 'true');
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');
  await questions.nth(2).click();
  await expect(faq.locator('[aria-expanded="true"]')).toHaveCount(0);
});

test('the home page shows the tool tabs, the live plans and no contact link when unset', async ({
  strictPage: page,
}) => {
  await page.goto('/');
  await expect(page.getByText(/PNG, JPG or WEBP and many more formats/).first()).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Tools by kind' }).getByRole('tab');
  await expect(tabs).toHaveText([
    'Image operations',
    'Audio conversion',
    'Video conversion',
    'Audio compression',
    'Video compression',
  ]);
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('link')).toHaveCount(11);
  await tabs.nth(3).click();
  await expect(panel.getByRole('link', { name: /Compress audio/ })).toHaveAttribute(
    'href',
    '/compress-audio',
  );
  const pricing = page.getByRole('region', { name: 'Simple pricing' });
  await expect(pricing.getByRole('heading', { level: 3 })).toHaveText([
    'Basic',
    'Developer',
    'Business',
  ]);
  // The e2e server runs without CONTACT_URL.
  await expect(page.getByRole('link', { name: 'Chat with us' })).toHaveCount(0);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Refract/);
});

test('legal pages have their sections, the date and a description in the reader language', async ({
  strictPage: page,
}) => {
  await page.goto('/refund-policy');
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(15);
  await expect(page.getByText('Last updated July 5, 2025')).toBeVisible();
  await page.goto('/terms-conditions');
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(15);
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(14);

  await page.addInitScript(() => localStorage.setItem('refract.language', 'de'));
  await page.goto('/refund-policy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rückerstattungsrichtlinie');
  await expect(page.getByText('Zuletzt aktualisiert am 5. Juli 2025')).toBeVisible();
  await expect(page).toHaveTitle('Rückerstattungsrichtlinie · Refract');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /erstattet/);
});

test('a signed-in user keeps their language across sessions; Arabic mirrors', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'language 1');
  await chooseArabic(page);
  await expect
    .poll(async () => (await apiFromPage(page, '/api/auth/me')).body)
    .toMatchObject({
      preferredLanguage: 'ar',
    });
  // A new browser session on this device: only the account remembers the choice.
  await page.evaluate(() => localStorage.removeItem('refract.language'));
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // Mirrored: the logo sits on the right.
  const logo = await page.getByRole('banner').getByRole('link').first().boundingBox();
  expect(logo!.x).toBeGreaterThan(page.viewportSize()!.width / 2);
});

test('a visitor who signs up keeps the language they chose', async ({ strictPage: page }) => {
  await page.addInitScript(() => {
    // Only before the first load: afterwards the account decides.
    if (!sessionStorage.getItem('started')) localStorage.setItem('refract.language', 'de');
    sessionStorage.setItem('started', '1');
  });
  await page.goto('/signup');
  await field(page, 'Name').fill('Emmy Noether');
  await field(page, 'E-Mail').fill(uniqueEmail());
  await field(page, 'Passwort').fill('sprache 12');
  await field(page, 'Passwort bestätigen').fill('sprache 12');
  await field(page, 'Was ist Ihr Lieblingsbuch?').fill('Faust');
  await field(page, 'Was ist Ihr Lieblingsgericht?').fill('Spätzle');
  await page.getByRole('button', { name: 'Konto erstellen' }).click();
  await page.waitForURL(/\/dashboard$/);
  await expect
    .poll(async () => (await apiFromPage(page, '/api/auth/me')).body)
    .toMatchObject({
      preferredLanguage: 'de',
    });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
