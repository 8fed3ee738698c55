import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AccountGateProvider } from '../../features/auth/account-gate-provider';
import { Footer } from './footer';
import { Header } from './header';
import { SuspendedNotice } from './suspended-notice';

/** The shared header and footer around every page, and the dialog that signs a visitor in. */
export function AppLayout() {
  const { t } = useTranslation();
  return (
    <AccountGateProvider>
      <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
        <a href="#main" className="skip-link">
          {t('nav.skipToContent')}
        </a>
        <Header />
        <Box component="main" id="main" tabIndex={-1} style={{ flex: 1 }}>
          <SuspendedNotice />
          <Outlet />
        </Box>
        <Footer />
      </Box>
    </AccountGateProvider>
  );
}
