// Mantine's global styles; each component brings its own (vite.config.ts, mantineStylesPerComponent).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './lib/i18n';
import { AppProviders } from './app/providers';

/**
 * The built page fetches its stylesheet without blocking the first paint (vite.config.ts,
 * nonBlockingStylesheet); it is applied here and the app waits for it. In development Vite
 * injects styles itself and there is no such link.
 */
function applyStyles(): Promise<unknown> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-styles]');
  if (!link) return Promise.resolve();
  const loaded = link.sheet
    ? Promise.resolve()
    : new Promise((resolve) => {
        link.addEventListener('load', resolve, { once: true });
        link.addEventListener('error', resolve, { once: true }); // render unstyled rather than never
      });
  link.media = 'all';
  return loaded;
}

// The visitor's language is a small chunk of its own; the app renders once it and the
// stylesheet are in.
void Promise.all([startI18n(), applyStyles()]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  ),
);
