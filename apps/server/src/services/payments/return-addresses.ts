import { AppError } from '../../lib/app-error.js';

/** Where a checkout sends the browser back, paid (`success`) or not (`cancel`). */
export interface ReturnAddresses {
  success: string;
  cancel: string;
  /** The caller's site (its origin when it is one of CORS_ORIGINS) or this one. */
  site: string;
}

/**
 * The return addresses of a checkout. Asked ones must be on this site or on an origin of
 * CORS_ORIGINS (a checkout is an open redirect otherwise: a link to this site that lands on any
 * other). Unasked, a caller whose `Origin` is one of CORS_ORIGINS returns to its own
 * `/success` and `/cancel` (the earlier client's pages), anyone else to this site's.
 */
export function returnAddresses(
  site: { publicUrl: string; corsOrigins: readonly string[] },
  asked: { successUrl?: string; cancelUrl?: string },
  callerOrigin: string | undefined,
): ReturnAddresses {
  const own = new URL(site.publicUrl).origin;
  const others = new Set(site.corsOrigins.map((origin) => new URL(origin).origin));
  const allowed = (url: string) => {
    const { origin } = new URL(url);
    if (origin === own || others.has(origin)) return url;
    throw new AppError(
      400,
      'return_url_not_allowed',
      `A checkout returns only to this site or to a site of CORS_ORIGINS, not to ${origin}`,
    );
  };
  const base = callerOrigin && others.has(callerOrigin) ? callerOrigin : own;
  return {
    success: allowed(asked.successUrl ?? `${base}/success`),
    cancel: allowed(asked.cancelUrl ?? `${base}/cancel`),
    site: base,
  };
}
