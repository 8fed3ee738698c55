import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isLanguage, type AuthResponse, type User } from '@refract/contracts';
import { api, sessionEvents, SUSPENDED_KEY, tokenStore } from '../api';
import { setLanguage } from '../i18n';
import { SessionContext, type Session } from './session-context';

/**
 * The signed-in user. At start a stored token is checked with GET /api/auth/me: success sets
 * the user, failure removes the token; so does any later answer saying the session has ended.
 * A user's saved language is applied when they sign in.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => tokenStore.get() !== null);
  const [suspended, setSuspended] = useState(
    () => globalThis.sessionStorage?.getItem(SUSPENDED_KEY) != null, // none when prerendered
  );

  const adopt = useCallback((next: User) => {
    setUser(next);
    if (isLanguage(next.preferredLanguage)) void setLanguage(next.preferredLanguage);
  }, []);

  useEffect(() => {
    if (!tokenStore.get()) return;
    let cancelled = false;
    api<User>('/api/auth/me')
      .then((me) => !cancelled && adopt(me))
      .catch(() => tokenStore.clear())
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [adopt]);

  // The server ended the session (api.ts): show the visitor's header and gate at once.
  useEffect(() => {
    const ended = () => {
      setUser(null);
      setSuspended(sessionStorage.getItem(SUSPENDED_KEY) !== null);
    };
    sessionEvents.addEventListener('ended', ended);
    return () => sessionEvents.removeEventListener('ended', ended);
  }, []);

  const signIn = useCallback(
    (response: AuthResponse) => {
      tokenStore.set(response.token);
      sessionStorage.removeItem(SUSPENDED_KEY);
      setSuspended(false);
      adopt(response.user);
    },
    [adopt],
  );

  const signOut = useCallback(() => {
    tokenStore.clear();
    setUser(null);
  }, []);

  const patchUser = useCallback((changes: Partial<User>) => {
    setUser((current) => (current ? { ...current, ...changes } : current));
  }, []);

  const session = useMemo<Session>(
    () => ({ loading, user, suspended, signIn, signOut, patchUser }),
    [loading, user, suspended, signIn, signOut, patchUser],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
