import { request as apiRequest, type Locator } from '@playwright/test';
import sharp from 'sharp';
import { SERVICES } from '@refract/contracts';
import { E2E_ADMIN } from './e2e-env';
import { expect, test } from './fixtures';
import { signUp, uniqueEmail, useLanguage } from './helpers';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#5b8bd0' } })
    .jpeg()
    .toBuffer();

/** Where the text from `start` to `end` of an element's only text node is drawn, left edge. */
function leftOf(element: Locator, start: number, end: number) {
  return element.evaluate(
    (node, { from, to }) => {
      const range = document.createRange();
      range.setStart(node.firstChild!, from);
      range.setEnd(node.firstChild!, to);
      return range.getBoundingClientRect().left;
    },
    { from: start, to: end },
  );
}

test('Arabic keeps a file name that starts with digits in its own order', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'arabic password 1');
  await useLanguage(page, 'ar');
  await page.goto('/convertaudio');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.locator('input[type="file"]').setInputFiles({
    name: '195-IMG_1054.mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.from('not really audio, only named'),
  });
  const name = page.locator('bdi', { hasText: '195-IMG_1054.mp3' });
  await expect(name).toBeVisible();
  // "195-" stays before "IMG", left of it, as the file is named.
  expect(await leftOf(name, 0, 3)).toBeLessThan(await leftOf(name, 4, 7));
});

test('the watermark preview writes "© Refract" the way the server does, in Arabic too', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'watermark password 1');
  await useLanguage(page, 'ar');
  await page.goto('/watermark');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await photo(600, 400) });
  const text = page.getByTestId('watermark-text');
  await expect(text).toHaveText('© Refract');
  // Like Pango, the text takes its direction from its first strong character: Latin, so "©"
  // is drawn left of "Refract" although the page is right-to-left.
  expect(await text.evaluate((node) => getComputedStyle(node).direction)).toBe('ltr');
  expect(await leftOf(text, 0, 1)).toBeLessThan(await leftOf(text, 2, 3));
});

for (const language of ['de', 'es', 'it']) {
  test(`${language} at 375 px: the watermark fits its image and the button label is whole`, async ({
    strictPage: page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signUp(page, uniqueEmail(), 'narrow password 1');
    await useLanguage(page, language);
    await page.goto('/watermark');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await photo(1200, 800) });
    const image = await page.getByRole('img').first().boundingBox();
    const text = await page.getByTestId('watermark-text').boundingBox();
    expect(text!.x).toBeGreaterThanOrEqual(image!.x);
    expect(text!.x + text!.width).toBeLessThanOrEqual(image!.x + image!.width);
    const label = page.locator('form button[type="submit"] .mantine-Button-label');
    expect(await label.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    const wide = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(wide).toBe(false);
  });
}

/** API requests as the shared e2e admin, its token, and the anonymous context that logged it in. */
async function adminRequests(baseURL: string) {
  const anonymous = await apiRequest.newContext({ baseURL });
  const login = await anonymous.post('/api/auth/login', { data: E2E_ADMIN });
  const { token } = (await login.json()) as { token: string };
  const admin = await apiRequest.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  return { admin, anonymous, token };
}

test('seeded plan names are translated; a plan an admin names keeps its name', async ({
  strictPage: page,
  baseURL,
}) => {
  const { admin, anonymous } = await adminRequests(baseURL!);
  const name = `Studio ${Date.now()}`;
  const created = await admin.post('/api/subscriptions/plans', {
    data: {
      name,
      monthlyFee: 9,
      annualFee: 90,
      features: [],
      services: SERVICES.map((service) => ({ name: service, monthlyQuota: 5, annualQuota: 60 })),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { _id } = (await created.json()) as { _id: string };
  try {
    await page.addInitScript(() => localStorage.setItem('refract.language', 'de'));
    await page.goto('/plans');
    const titles = page.getByTestId('plan-card').getByRole('heading');
    await expect(titles).toContainText(['Basis', 'Entwickler', 'Unternehmen', name]);
  } finally {
    await admin.delete(`/api/subscriptions/plans/${_id}`);
    await admin.dispose();
    await anonymous.dispose();
  }
});

test('the admin dashboard counts subscribers under the translated plan names', async ({
  strictPage: page,
  baseURL,
}) => {
  const { admin, anonymous, token } = await adminRequests(baseURL!);
  // A signed-in user's saved language wins; the shared admin gets English back after.
  await admin.post('/api/user/preferred-language', { data: { language: 'ar' } });
  try {
    await page.addInitScript((value) => localStorage.setItem('token', value), token);
    await page.goto('/admin');
    const hint = page.getByText(/المطوّر.*الأعمال/);
    await expect(hint).toBeVisible();
    await expect(hint).not.toContainText(/Developer|Business/);
  } finally {
    await admin.post('/api/user/preferred-language', { data: { language: 'en' } });
    await admin.dispose();
    await anonymous.dispose();
  }
});

for (const width of [375, 1280]) {
  test(`Arabic draws a size number first, then its unit, on a batch (${width}px)`, async ({
    strictPage: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, uniqueEmail(), 'arabic sizes password 1');
    await useLanguage(page, 'ar');
    await page.goto('/compress');
    await page.locator('input[type="file"]').setInputFiles(
      await Promise.all(
        [1, 2].map(async (n) => ({
          name: `photo-${n}.jpg`,
          mimeType: 'image/jpeg',
          buffer: await photo(1200, 800 + n),
        })),
      ),
    );
    const chosen = page.getByText(/ملفان مختاران \(/);
    await expect(chosen).toBeVisible();
    // Where the size's number and its unit are drawn: "7.6 MB" once came out "MB 7.6".
    const order = await chosen.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        const unit = text.search(/\b[KMG]?B\b/);
        const digit = text.search(/[0-9٠-٩]/);
        if (unit < 0 || digit < 0) continue;
        const left = (from: number) => {
          const range = document.createRange();
          range.setStart(node, from);
          range.setEnd(node, from + 1);
          return range.getBoundingClientRect().left;
        };
        return { number: left(digit), unit: left(unit) };
      }
      return undefined;
    });
    expect(order).toBeDefined();
    expect(order!.number).toBeLessThan(order!.unit);
  });
}
