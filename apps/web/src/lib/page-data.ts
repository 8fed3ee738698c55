import type { QueryClient } from '@tanstack/react-query';
import type { PaymentMode, Plan } from '@refract/contracts';

/**
 * What the server knew when it drew a page (apps/server/src/plugins/live-pages.ts): the answers
 * of the queries that page makes first, so its HTML holds what they show (the plans, the
 * test-mode banner), and the browser's first render, seeded with the same, hydrates it as it is.
 */
export interface PageData {
  plans?: Plan[];
  paymentMode?: PaymentMode;
}

/** The element that carries a page's data as JSON (not run: the CSP allows no inline script). */
export const PAGE_DATA_ID = 'page-data';

/** The page's queries answered with `data`, as they would be once fetched. */
export function seedQueries(client: QueryClient, data: PageData | undefined) {
  if (data?.plans) client.setQueryData(['plans'], data.plans);
  if (data?.paymentMode) client.setQueryData(['payment-mode'], data.paymentMode);
}

/** The data the page was drawn with, if the server drew it with any. */
export function readPageData(): PageData | undefined {
  const element = document.getElementById(PAGE_DATA_ID);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as PageData;
  } catch {
    return undefined;
  }
}

/** `data` as the text of a JSON script element: no "</script>" or "<!--" can end it early. */
export const pageDataElement = (data: PageData) =>
  `<script type="application/json" id="${PAGE_DATA_ID}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
