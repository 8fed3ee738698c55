import { AppError } from './app-error.js';

export const accountSuspended = () =>
  new AppError(403, 'account_suspended', 'This account is suspended. Contact the site admin.');
