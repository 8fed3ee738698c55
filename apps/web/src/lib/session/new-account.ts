/**
 * The account just made in this tab, so its dashboard greets it as new. Kept in the tab's
 * session storage, not in the router's state: the sign-up page's own redirect (VisitorOnly, as
 * the session changes) may be the one that lands, and it carries no state.
 */
const KEY = 'refract.newAccount';

export const markNewAccount = (userId: string) => sessionStorage.setItem(KEY, userId);

/** Whether `userId` is the account just made here (until `forgetNewAccount`). */
export const isNewAccount = (userId: string | undefined) =>
  userId !== undefined && sessionStorage.getItem(KEY) === userId;

/** Its first dashboard has greeted it: from now on it is welcomed back. */
export const forgetNewAccount = () => sessionStorage.removeItem(KEY);
