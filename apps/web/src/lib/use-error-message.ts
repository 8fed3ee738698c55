import { useTranslation } from 'react-i18next';
import { ApiError } from './api';

/** An error as a sentence in the user's language, from its stable code. */
export function useErrorMessage() {
  const { t } = useTranslation();
  return (error: unknown): string => {
    if (error instanceof ApiError) {
      return t(`errors.${error.code}`, { defaultValue: error.message });
    }
    return t('errors.internal_error');
  };
}
