/** The app's own pages the API may send the browser to (the sandbox checkout, the dashboard). */
const APP_PAGES = [/^\/sandbox\/checkout\/[\w-]+$/, /^\/dashboard$/];

/**
 * The in-app path of an address the API answered (absolute, from PUBLIC_URL), so the app
 * moves there without a reload, even when the user reached it by another host name; null for
 * an address elsewhere (Stripe Checkout), which the browser must load.
 */
export function appPath(url: string): string | null {
  const address = new URL(url, window.location.href);
  const path = `${address.pathname}${address.search}`;
  if (address.origin === window.location.origin) return path;
  return APP_PAGES.some((page) => page.test(address.pathname)) ? path : null;
}
