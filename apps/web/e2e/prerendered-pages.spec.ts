import type { Page } from '@playwright/test';
import { PRERENDERED_PATHS } from '../src/prerender/public-pages';
import { DOT_PNG, signUp, uniqueEmail } from './helpers';
import { E2E_ADMIN } from './e2e-env';
import { expect, test } from './fixtures';

// The public pages arrive as HTML with their content (decision 036) and React takes them over
// (hydrates) without drawing them again. strictPage fails a test on any console error or
// warning, React's hydration errors included.

/** Holds back the scripts `pattern` matches until `release()` is called. */
async function holdBack(page: Page, pattern: RegExp) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Chooses a 1×1 PNG named early.png in the page's file input. */
const chooseEarly = (page: Page) =>
  page.locator('input[type="file"]').setInputFiles({
    name: 'early.png',
    mimeType: 'image/png',
    buffer: Buffer.from(DOT_PNG, 'base64'),
  });

const PAGES = [
  { path: '/', heading: 'Every media tool you need, in one place' },
  { path: '/plans', heading: 'Plans' },
  { path: '/privacy-policy', heading: 'Privacy policy' },
  { path: '/convert', heading: 'Convert image' },
];

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('each public page shows its content, styled', async ({ page }) => {
    for (const { path, heading } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
    }
    // Mantine's styles are in force: its reset and a button's own rounded corners.
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    const button = page.locator('.mantine-Button-root').first();
    expect(await button.evaluate((el) => getComputedStyle(el).borderRadius)).not.toBe('0px');
  });

  test('/plans comes with the plans as an admin set them and the test-mode strip', async ({
    page,
  }) => {
    await page.goto('/plans');
    for (const name of ['Basic', 'Developer', 'Business'])
      await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(page.getByText('Test mode: payments are simulated').first()).toBeVisible();
    await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);

    // A plan an admin adds is in the next page the server sends.
    const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    const headers = { authorization: `Bearer ${(await login.json()).token}` };
    const plans = await (await page.request.get('/api/subscriptions/plans')).json();
    const {
      _id: _developerId,
      archived: _archived,
      ...developer
    } = plans.find((plan: { name: string }) => plan.name === 'Developer');
    const created = await page.request.post('/api/subscriptions/plans', {
      headers,
      data: { ...developer, name: 'Studio' },
    });
    expect(created.ok(), await created.text()).toBe(true);
    try {
      await page.goto('/plans');
      await expect(page.getByRole('heading', { level: 2, name: 'Studio' })).toBeVisible();
    } finally {
      await page.request.delete(`/api/subscriptions/plans/${(await created.json())._id}`, {
        headers,
      });
    }
  });

  test('a page the app draws by itself still gets the shell', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('#root')).toHaveText('Refract');
  });
});

test.describe('in Arabic by the browser', () => {
  test.use({ locale: 'ar' });

  test('the page comes in Arabic, right to left, with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'ar', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'كل أدوات الوسائط التي تحتاجها في مكان واحد',
    );
    await context.close();
  });

  test('and is hydrated in Arabic', async ({ strictPage: page }) => {
    const replaced = await watchReplacement(page);
    await page.goto('/plans');
    await expectHydrated(page, replaced);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });
});

/**
 * Records whether anything React drew in place of the prerendered page: createRoot empties
 * #root first, and so does a hydration that failed and fell back to drawing afresh.
 */
async function watchReplacement(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __replaced: boolean };
    w.__replaced = false;
    new MutationObserver((records) => {
      for (const record of records)
        if ((record.target as Element).id === 'root' && record.removedNodes.length > 0)
          w.__replaced = true;
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __replaced: boolean }).__replaced);
}

/** The app is running (its language fetched, the header's menu answers) on the same nodes. */
async function expectHydrated(page: Page, replaced: () => Promise<boolean>) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered');
  expect(await replaced(), 'the prerendered page was drawn again').toBe(false);
}

test('every prerendered page hydrates without being drawn again', async ({ strictPage: page }) => {
  const replaced = await watchReplacement(page);
  for (const path of PRERENDERED_PATHS) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    await expectHydrated(page, replaced);
  }
});

test('each public page is hydrated, not drawn again, and its links work', async ({
  strictPage: page,
}) => {
  const replaced = await watchReplacement(page);
  for (const { path, heading } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
    await expectHydrated(page, replaced);
  }
  // Navigation is the app's own from here: the plans page without a new document.
  await page.goto('/');
  await expectHydrated(page, replaced);
  await page.evaluate(
    () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
  );
  await page.getByRole('banner').getByRole('link', { name: 'Plans' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plans' })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
  ).toBe(true);
  // A tool page hydrated where it landed answers: its dropzone takes a file, its button asks to sign in.
  await page.goto('/convert');
  await expectHydrated(page, replaced);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'dot.png',
    mimeType: 'image/png',
    buffer: Buffer.from(DOT_PNG, 'base64'),
  });
  await expect(page.getByText('dot.png').first()).toBeVisible();
  await page.getByRole('button', { name: /^Convert to / }).click();
  await expect(page.getByRole('dialog', { name: 'Log in to continue' })).toBeVisible();
});

test('a signed-in user gets their own header on a prerendered page', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'a long password 1');
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
  await expect(header.getByRole('link', { name: 'Log in' })).toHaveCount(0);
});

test('a language in the cookie alone is the one the page is sent and hydrated in', async ({
  strictPage: page,
  baseURL,
}) => {
  const replaced = await watchReplacement(page);
  // Local storage cleared, the cookie kept: the server sends Arabic, and the app keeps it.
  await page.context().addCookies([{ name: 'refract.language', value: 'ar', url: baseURL! }]);
  await page.goto('/plans');
  await expectHydrated(page, replaced);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
});

test('a language chosen before the cookie existed is drawn in that language', async ({
  strictPage: page,
}) => {
  const replaced = await watchReplacement(page);
  // The choice in local storage only: the server sends English, the app draws German afresh.
  await page.addInitScript(() => {
    if (!document.cookie.includes('refract.language'))
      localStorage.setItem('refract.language', 'de');
  });
  await page.goto('/plans');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1, name: 'Tarife' })).toBeVisible();
  // Drawn afresh over the English page: what the other tests' check would catch.
  expect(await replaced()).toBe(true);
});

for (const who of ['visitor', 'signed-in user'] as const) {
  test(`a file chosen before the scripts run is taken once React runs (${who})`, async ({
    strictPage: page,
  }) => {
    if (who === 'signed-in user') await signUp(page, uniqueEmail(), 'a long password 1');
    // The app's scripts are held back until the file is chosen in the prerendered page.
    const release = await holdBack(page, /\/assets\/.*\.js$/);
    await page.goto('/convert', { waitUntil: 'commit' });
    await chooseEarly(page);
    release();
    await expect(page.getByText('early.png').first()).toBeVisible();
  });
}

for (const how of ['a tap', 'Enter'] as const) {
  test(`${how} on the dropzone before the app has started opens the file dialog, and the file is taken`, async ({
    strictPage: page,
  }) => {
    // The first script runs; the app itself is held back, as on a slow phone network.
    const release = await holdBack(page, /\/assets\/start-.*\.js$/);
    await page.goto('/convert', { waitUntil: 'commit' });
    // The first script has run once it has asked for the page's own chunks.
    await page.waitForSelector('link[rel="modulepreload"][href*="convert-page"]', {
      state: 'attached',
    });
    const chooser = page.waitForEvent('filechooser');
    const dropzone = page.locator('.mantine-Dropzone-root').first();
    if (how === 'a tap') await dropzone.click();
    else {
      await dropzone.focus();
      await page.keyboard.press('Enter');
    }
    await (
      await chooser
    ).setFiles({
      name: 'early.png',
      mimeType: 'image/png',
      buffer: Buffer.from(DOT_PNG, 'base64'),
    });
    release();
    await expect(page.getByText('early.png').first()).toBeVisible();
  });
}

for (const when of ['before the scripts run', 'while the app loads'] as const) {
  test(`words typed and choices made ${when} are kept once React runs`, async ({
    strictPage: page,
  }) => {
    // The scripts are held back (all of them, or only the app's) while the visitor types.
    const release = await holdBack(
      page,
      when === 'before the scripts run' ? /\/assets\/.*\.js$/ : /\/assets\/start-.*\.js$/,
    );
    await page.goto('/meme-generator', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Top text' }).fill('EARLY CAPTION');
    await page.getByText('Outside the image').click();
    await chooseEarly(page);
    release();
    // Only the running app enables the button and shows the band's colour for outside text.
    await expect(page.getByRole('button', { name: 'Make the meme and download' })).toBeEnabled();
    await expect(page.getByRole('textbox', { name: 'Band colour' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Top text' })).toHaveValue('EARLY CAPTION');
  });
}

test('a file chosen while the page’s own chunk loads, after React has started, is taken', async ({
  strictPage: page,
}) => {
  // React hydrates what it has; the tool page waits for its chunk. A change in it meanwhile is
  // stopped by React's listener on the root, before the input's own listener hears it.
  const release = await holdBack(page, /\/assets\/meme-page-.*\.js$/);
  const started = page.waitForResponse(/\/assets\/start-.*\.js$/);
  await page.goto('/meme-generator', { waitUntil: 'commit' });
  await started;
  // hydrateRoot has run once the root has React's listeners: its container is marked.
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
  );
  await chooseEarly(page);
  release();
  await expect(page.getByRole('button', { name: 'Make the meme and download' })).toBeEnabled();
});
