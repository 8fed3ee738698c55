import { TOOLS } from '@refract/contracts';
import { LEGAL_DOCUMENTS } from '../features/legal/legal-documents';

/** The legal pages' addresses: their texts must be in before such a page hydrates. */
export const LEGAL_PATHS: readonly string[] = Object.values(LEGAL_DOCUMENTS).map((d) => d.path);

/**
 * The pages written to HTML at build time (prerender-pages.tsx) and hydrated in the browser:
 * the ones a visitor lands on. Each tool page is prerendered in its empty state, as a visitor
 * first sees it. Every other address gets the shell and renders in the browser only.
 */
export const PRERENDERED_PATHS: readonly string[] = [
  '/',
  '/plans',
  ...LEGAL_PATHS,
  ...TOOLS.map((tool) => tool.route),
];
