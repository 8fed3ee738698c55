import { test as base, expect } from '@playwright/test';

/**
 * A page that fails its test on any console error or warning, uncaught exception or failed
 * request, so a broken asset, a CSP violation or a library's complaint cannot pass unnoticed.
 */
export const test = base.extend<{
  strictPage: import('@playwright/test').Page;
  /** Error answers a test provokes on purpose, as "401 /api/user/stats"; strictPage lets them pass. */
  expectedHttpErrors: string[];
}>({
  // eslint-disable-next-line no-empty-pattern
  expectedHttpErrors: async ({}, use) => use([]),
  strictPage: async ({ page, expectedHttpErrors }, use) => {
    const problems: string[] = [];
    const expected = (status: number | string, url: string) =>
      expectedHttpErrors.includes(`${status} ${new URL(url, 'http://x').pathname}`);
    page.on('console', (msg) => {
      if (msg.type() === 'warning') problems.push(`console warning: ${msg.text()}`);
      if (msg.type() !== 'error') return;
      // Chromium also reports an error answer in the console, naming its address.
      const status = msg.text().match(/status of (\d{3})/)?.[1];
      if (status && expected(status, msg.location().url)) return;
      problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => {
      // Leaving a page cancels its pending requests; that is not a failure.
      if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
      problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
    });
    page.on('response', (res) => {
      if (res.status() < 400) return;
      if (expected(res.status(), res.url())) return;
      problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    await use(page);
    expect(problems, problems.join('\n')).toEqual([]);
  },
});

export { expect };

/** True when the page is wider than the viewport (something overflows horizontally). */
export async function overflowsHorizontally(page: import('@playwright/test').Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
