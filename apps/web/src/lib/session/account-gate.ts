import { createContext, useContext, useEffect } from 'react';
import type { User } from '@refract/contracts';

/**
 * What a tool page asks before it sends work to the server (which needs an account): a
 * signed-in user's action runs at once; a visitor is asked to log in or sign up in a dialog,
 * and the same action runs after, with the files and settings it closed over. The action is
 * given the user, whom the page's own state may not show yet.
 */
export type WhenSignedIn = (action: (user: User) => void) => void;

export const AccountGateContext = createContext<{
  whenSignedIn: WhenSignedIn;
  /** Fetches the dialog's forms ahead, for a visitor on a page that may ask. */
  prepare(): void;
} | null>(null);

export function useWhenSignedIn(): WhenSignedIn {
  const gate = useContext(AccountGateContext);
  if (!gate) throw new Error('useWhenSignedIn outside AccountGateProvider');
  const { whenSignedIn, prepare } = gate;
  useEffect(prepare, [prepare]);
  return whenSignedIn;
}
