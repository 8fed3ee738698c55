import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Language } from '@refract/contracts';
import { startI18n } from '../lib/i18n';
import { AppProviders } from './providers';

/** Renders the app in the visitor's language once its strings are in (main.tsx calls this). */
export async function startApp(language: Language) {
  await startI18n(language);
  // StrictMode checks components in development (effects run twice, to find a missing
  // cleanup); it renders nothing of its own and does nothing in the built app.
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  );
}
