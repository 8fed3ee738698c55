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

/**
 * What the log-in and sign-up pages are sent with: the page to go to once signed in (where a
 * guard sent the visitor away from, or the checkout of the plan they picked). Each page's link
 * to the other carries it along.
 */
export interface SignInState {
  from?: string;
}

/** After signing in: back to the page a guard sent a user away from, else their home. */
export function landingFor(user: User, from: unknown): string {
  return !user.isAdmin && typeof from === 'string' && from.startsWith('/') ? from : homeFor(user);
}
