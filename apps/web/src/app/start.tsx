import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Language } from '@refract/contracts';
import { SUSPENDED_KEY, tokenStore } from '../lib/api';
import { loadLegalTexts, startI18n } from '../lib/i18n';
import { LEGAL_PATHS } from '../prerender/public-pages';
import { readPageData } from '../lib/page-data';
import { AppProviders } from './providers';

/**
 * The page holds the app as prerendered at build time for a visitor in this language
 * (`<div id="root" data-prerendered="xx">`, src/prerender): React can take it over as it is.
 * A signed-in reader's first render differs (their session is checked first, then their own
 * header), and so does another language's, so those render afresh over the prerendered page.
 */
function canHydrate(root: HTMLElement, language: Language) {
  return (
    root.dataset.prerendered === language &&
    tokenStore.get() === null &&
    sessionStorage.getItem(SUSPENDED_KEY) === null
  );
}

/** Renders the app in the visitor's language once its strings are in (main.tsx calls this). */
export async function startApp(language: Language) {
  await startI18n(language);
  const root = document.getElementById('root')!;
  // StrictMode checks components in development (effects run twice, to find a missing
  // cleanup); it renders nothing of its own and does nothing in the built app.
  const app = (
    <StrictMode>
      <AppProviders data={readPageData()} />
    </StrictMode>
  );
  if (!canHydrate(root, language)) {
    createRoot(root).render(app);
    return;
  }
  // The legal texts were in the prerendered page, so they must be in for its first render too.
  if (LEGAL_PATHS.includes(location.pathname)) await loadLegalTexts(language);
  hydrateRoot(root, app);
}
