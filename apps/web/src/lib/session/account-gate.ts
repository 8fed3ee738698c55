import { createContext, useContext } from 'react';
import type { User } from '@refract/contracts';

/**
 * What a tool page asks before it sends work to the server (which needs an account): a
 * signed-in user's action runs at once; a visitor is asked to log in or sign up in a dialog,
 * and the same action runs after, with the files and settings it closed over. The action is
 * given the user, whom the page's own state may not show yet.
 */
export type WhenSignedIn = (action: (user: User) => void) => void;

export const AccountGateContext = createContext<WhenSignedIn | null>(null);

export function useWhenSignedIn(): WhenSignedIn {
  const whenSignedIn = useContext(AccountGateContext);
  if (!whenSignedIn) throw new Error('useWhenSignedIn outside AccountGateProvider');
  return whenSignedIn;
}
