import { Modal, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@refract/contracts';
import { AccountGateContext, type WhenSignedIn } from '../../lib/session/account-gate';
import { useSession } from '../../lib/session/session-context';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

type Tab = 'login' | 'signup';

/**
 * Holds a visitor's submitted work while a dialog asks them to log in or sign up (the same
 * forms as the pages), then runs it. Nothing leaves the page: the files stay in its state.
 */
export function AccountGateProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { pathname } = useLocation();
  const phone = useMediaQuery('(max-width: 36em)');
  const [tab, setTab] = useState<Tab | null>(null);
  const pending = useRef<((user: User) => void) | null>(null);

  const close = useCallback(() => {
    pending.current = null;
    setTab(null);
  }, []);

  // Another page is another piece of work: whatever was waiting is dropped.
  useEffect(close, [pathname, close]);

  const whenSignedIn = useCallback<WhenSignedIn>(
    (action) => {
      if (user) return action(user);
      pending.current = action;
      setTab('login');
    },
    [user],
  );

  // The session is stored before this runs, so the action's requests carry the new token.
  const signedIn = (next: User) => {
    const action = pending.current;
    close();
    action?.(next);
  };

  return (
    <AccountGateContext.Provider value={whenSignedIn}>
      {children}
      <Modal
        opened={tab !== null}
        onClose={close}
        title={t('accountGate.title')}
        closeButtonProps={{ 'aria-label': t('accountGate.close') }}
        fullScreen={phone}
        centered
      >
        <Text size="sm" c="dimmed" mb="md">
          {t('accountGate.body')}
        </Text>
        <Tabs value={tab} onChange={(next) => next && setTab(next as Tab)}>
          <Tabs.List grow>
            <Tabs.Tab value="login">{t('nav.login')}</Tabs.Tab>
            <Tabs.Tab value="signup">{t('nav.signup')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="login" pt="md">
            <LoginForm onSignedIn={signedIn} inDialog />
          </Tabs.Panel>
          <Tabs.Panel value="signup" pt="md">
            <SignupForm onSignedUp={signedIn} />
          </Tabs.Panel>
        </Tabs>
      </Modal>
    </AccountGateContext.Provider>
  );
}
