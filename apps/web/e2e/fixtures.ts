import { test as base, expect } from '@playwright/test';

/**
 * A page that fails its test on any console error, uncaught exception or failed request,
 * so a broken asset or a CSP violation cannot pass unnoticed.
 */
export const test = base.extend<{ strictPage: import('@playwright/test').Page }>({
  strictPage: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => {
      // Leaving a page cancels its pending requests; that is not a failure.
      if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
      problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
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
