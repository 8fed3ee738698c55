import { Alert, Button, Center, Group, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';
import { useErrorMessage } from '../lib/use-error-message';

/**
 * Loading and error states for a query: a spinner, or the error in the user's language with
 * a retry button (and a log-in button when the session has ended).
 */
export function QueryState<T>({
  query,
  onRetry = () => void query.refetch(),
  children,
}: {
  query: UseQueryResult<T>;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}) {
  const { isPending, error } = query;
  const { t } = useTranslation();
  const message = useErrorMessage();
  if (isPending) {
    return (
      <Center py={80}>
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error) {
    const needsLogin = error instanceof ApiError && error.status === 401;
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle size={18} />}
        role="alert"
        title={t('common.loadFailed')}
      >
        {message(error)}
        <Group mt="sm">
          {needsLogin ? (
            <Button component="a" href="/login" size="xs">
              {t('nav.login')}
            </Button>
          ) : (
            <Button size="xs" variant="light" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
        </Group>
      </Alert>
    );
  }
  return children(query.data as T);
}
