import { Center, Loader, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@refract/contracts';
import { AccountGateContext, type WhenSignedIn } from '../../lib/session/account-gate';
import { useSession } from '../../lib/session/session-context';
import type { AccountGateTab as Tab } from './account-gate-forms';

/**
 * The forms (and their Mantine parts) are not in the first script: the home page never asks.
 * A page that may ask fetches them when it mounts (`prepare`), so the dialog opens complete.
 */
const loadForms = () => import('./account-gate-forms');
const AccountGateForms = lazy(() => loadForms().then((m) => ({ default: m.AccountGateForms })));

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
  const prepare = useCallback(() => {
    if (!user) void loadForms();
  }, [user]);
  const gate = useMemo(() => ({ whenSignedIn, prepare }), [whenSignedIn, prepare]);

  // The session is stored before this runs, so the action's requests carry the new token.
  const signedIn = (next: User) => {
    const action = pending.current;
    close();
    action?.(next);
  };

  return (
    <AccountGateContext.Provider value={gate}>
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
        <Suspense
          fallback={
            <Center py="xl">
              <Loader aria-label={t('common.loading')} />
            </Center>
          }
        >
          <AccountGateForms tab={tab} onTabChange={setTab} onSignedIn={signedIn} />
        </Suspense>
      </Modal>
    </AccountGateContext.Provider>
  );
}
