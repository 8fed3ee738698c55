import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '@refract/contracts';
import { BrowserRouter, StaticRouter } from 'react-router';
import { directionOf, currentLanguage } from '../lib/i18n';
import { SessionProvider } from '../lib/session/session-provider';
import { seedQueries, type PageData } from '../lib/page-data';
import { AppRoutes } from './router';
import { cssVariablesResolver, theme } from './theme';

const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
const browserQueryClient = newQueryClient();

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

/**
 * The whole app. In the browser it follows the address bar; prerendered (src/prerender) it is
 * drawn at `location`, with a query cache of its own: empty at build time (queries do not run
 * there, so pages that fetch show their loading state, as in the browser's first render), or
 * holding the answers the server drew the page with (`data`, lib/page-data.ts). The browser's
 * cache starts with the same answers.
 */
export function AppProviders({ location, data }: { location?: string; data?: PageData }) {
  const routes = <AppRoutes />;
  const [queryClient] = useState(() => {
    const client = location === undefined ? browserQueryClient : newQueryClient();
    seedQueries(client, data);
    return client;
  });
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
            {location === undefined ? (
              <BrowserRouter>{routes}</BrowserRouter>
            ) : (
              <StaticRouter location={location}>{routes}</StaticRouter>
            )}
          </SessionProvider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
