import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '@refract/contracts';
import { BrowserRouter } from 'react-router';
import { directionOf, currentLanguage } from '../lib/i18n';
import { SessionProvider } from '../lib/session/session-provider';
import { AppRoutes } from './router';
import { cssVariablesResolver, theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Mantine's components mirror by their own direction state, so it follows every language change:
 * the selector's, and a signed-in user's saved language applied at sign-in.
 */
function DirectionFollowsLanguage() {
  const { i18n } = useTranslation();
  const { setDirection } = useDirection();
  useEffect(() => {
    if (isLanguage(i18n.language)) setDirection(directionOf(i18n.language));
  }, [i18n.language, setDirection]);
  return null;
}

export function AppProviders() {
  return (
    <DirectionProvider initialDirection={directionOf(currentLanguage())} detectDirection={false}>
      <DirectionFollowsLanguage />
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
      >
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </SessionProvider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
