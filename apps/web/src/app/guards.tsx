import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { landingFor, nextIn, signInPage, useSession } from '../lib/session/session-context';
import { checkoutKeyIn } from '../lib/checkout-link';

export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/** `anyone`: visitors too, once a stored session has been checked (tool pages). */
export type Access = 'anyone' | 'signed-in' | 'user' | 'admin';

/**
 * Route guards. The server checks every call again; these only decide
 * what to show. Visitors go to /login (replacing history), remembering where they were,
 * except on `anyone` pages, where sending work asks them to sign in (AccountGateProvider).
 */
export function Guard({ access, children }: { access: Access; children: ReactNode }) {
  const { loading, user } = useSession();
  const location = useLocation();
  if (loading) return <FullPageSpinner />;
  if (access === 'anyone') return children;
  if (!user)
    return <Navigate to={signInPage('/login', location.pathname + location.search)} replace />;
  if (access === 'admin' && !user.isAdmin) return <Navigate to="/login" replace />;
  if (access === 'user' && user.isAdmin) return <Navigate to="/admin" replace />;
  return children;
}

/**
 * A checkout's page: its link's key stands for a sign-in there (the user may have come from
 * another site, whose sign-in this one does not share); without one, a signed-in user's.
 */
export function SignedInOrCheckoutLink({ children }: { children: ReactNode }) {
  const { hash } = useLocation();
  return checkoutKeyIn(hash) ? children : <Guard access="signed-in">{children}</Guard>;
}

/** Login and sign-up are for visitors: a signed-in user is sent home. */
export function VisitorOnly({ children }: { children: ReactNode }) {
  const { loading, user } = useSession();
  const next = nextIn(useLocation().search);
  if (loading) return <FullPageSpinner />;
  if (user) return <Navigate to={landingFor(user, next)} replace />;
  return children;
}
