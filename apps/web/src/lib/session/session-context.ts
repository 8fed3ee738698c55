import { createContext, useContext } from 'react';
import type { AuthResponse, User } from '@refract/contracts';

export interface Session {
  /** True until a stored token has been checked with the server. */
  loading: boolean;
  user: User | null;
  /** The server signed this tab out because the account is suspended (until the next sign-in). */
  suspended: boolean;
  /** Stores the token and user from a login or sign-up answer. */
  signIn(response: AuthResponse): void;
  signOut(): void;
  /** Updates fields of the signed-in user after the server accepted a change. */
  patchUser(changes: Partial<User>): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** Where a user lands after signing in: admins to /admin, everyone else to /dashboard. */
export function homeFor(user: User): string {
  return user.isAdmin ? '/admin' : '/dashboard';
}

/** A path of this site: one slash, not two (`//host` and `/\\host` are other sites). */
const SITE_PATH = /^\/(?![/\\])/;

/**
 * The log-in or sign-up page, with the page to go to once signed in (where a guard sent the
 * visitor away from, or the checkout of the plan they picked) in its address, `?next=`. In the
 * address, not in the router's memory: a link followed before the app has started (a visitor
 * quick on a slow phone) and a reload both keep it. Each page's link to the other carries it.
 */
export function signInPage(page: '/login' | '/signup', next?: string): string {
  return next ? `${page}?next=${encodeURIComponent(next)}` : page;
}

/** The page to go to once signed in, from the log-in or sign-up page's address. */
export function nextIn(search: string): string | undefined {
  const next = new URLSearchParams(search).get('next');
  return next !== null && SITE_PATH.test(next) ? next : undefined;
}

/** After signing in: back to the page a guard sent a user away from, else their home. */
export function landingFor(user: User, next: string | undefined): string {
  return !user.isAdmin && next !== undefined && SITE_PATH.test(next) ? next : homeFor(user);
}
