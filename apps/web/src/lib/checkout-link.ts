/**
 * A sandbox checkout's link carries its key in the fragment (`#key=…`), which the browser never
 * sends to a server: the page sends it as `X-Checkout-Key`, and it opens that checkout alone.
 */
export function checkoutKeyIn(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('key');
}
