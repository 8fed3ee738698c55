import type { TFunction } from 'i18next';
import { PASSWORD_MIN_LENGTH } from '@refract/contracts';

/** The checks a new password gets before it is sent; the server checks length again. */
export function validatePasswordPair(password: string, confirmation: string, t: TFunction) {
  const errors: { password?: string; confirmPassword?: string } = {};
  if (password && password.length < PASSWORD_MIN_LENGTH)
    errors.password = t('errors.weak_password');
  if (!password) errors.password = t('validation.required');
  if (!confirmation) errors.confirmPassword = t('validation.required');
  else if (password !== confirmation) errors.confirmPassword = t('validation.passwordsNoMatch');
  return errors;
}
