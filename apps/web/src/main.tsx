import '@mantine/core/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './lib/i18n';
import { AppProviders } from './app/providers';

// The visitor's language is a small chunk of its own; the app renders once it is in.
void startI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders />
    </StrictMode>,
  ),
);
