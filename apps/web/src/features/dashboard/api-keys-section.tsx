import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_API_KEYS, type ApiKeyList, type CreatedApiKey } from '@refract/contracts';
import { ErrorAlert } from '../../components/error-alert';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useErrorMessage } from '../../lib/use-error-message';
import { ApiKeyRow } from './api-key-row';

const KEYS = ['api-keys'];

/** Create, list and revoke API keys. A new key is shown once, until the page is left. */
export function ApiKeysSection() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEYS, queryFn: () => api<ApiKeyList>('/api/keys') });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEYS });

  const create = useMutation({
    mutationFn: () => api<CreatedApiKey>('/api/keys', { body: { name } }),
    onSuccess: async (key) => {
      setCreated(key);
      setName('');
      setError(null);
      await refresh();
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const revoke = useMutation({
    mutationFn: (id: string) => api(`/api/keys/${id}`, { method: 'DELETE' }),
    onSuccess: async (_, id) => {
      if (created?.id === id) setCreated(null);
      setError(null);
      await refresh();
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };

  return (
    <Paper withBorder radius="lg" p="lg" mt="lg" component="section" aria-labelledby="api-keys">
      <Title order={2} size="h4" id="api-keys" mb="xs">
        {t('dashboard.apiKeys.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('dashboard.apiKeys.intro')}{' '}
        <Anchor href="/api/docs" target="_blank" rel="noopener" underline="always">
          {t('dashboard.apiKeys.reference')}
        </Anchor>
      </Text>

      <form onSubmit={submit}>
        <Group align="flex-end" gap="sm" mb="md">
          <TextInput
            label={t('dashboard.apiKeys.name')}
            placeholder={t('dashboard.apiKeys.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            required
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} />}>
            {t('dashboard.apiKeys.create')}
          </Button>
        </Group>
      </form>

      <Stack gap="md">
        <ErrorAlert message={error} />
        {created && (
          <Alert color="teal" title={t('dashboard.apiKeys.createdTitle')} role="status">
            <Text size="sm" mb="xs">
              {t('dashboard.apiKeys.createdNote')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code
                block
                dir="ltr"
                data-testid="new-api-key"
                style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              >
                {created.key}
              </Code>
              <CopyButton value={created.key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? t('dashboard.apiKeys.copied') : t('dashboard.apiKeys.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Alert>
        )}
        <QueryState query={keys}>
          {({ keys: list }) =>
            list.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('dashboard.apiKeys.none')}
              </Text>
            ) : (
              <Stack gap="xs">
                <Text size="xs" c="dimmed">
                  {t('dashboard.apiKeys.count', {
                    used: formatNumber(list.length),
                    count: MAX_API_KEYS,
                  })}
                </Text>
                {list.map((key) => (
                  <ApiKeyRow
                    key={key.id}
                    apiKey={key}
                    created={formatDate(key.createdAt)}
                    lastUsed={key.lastUsedAt ? formatDate(key.lastUsedAt) : null}
                    revoking={revoke.isPending && revoke.variables === key.id}
                    onRevoke={() => revoke.mutate(key.id)}
                  />
                ))}
              </Stack>
            )
          }
        </QueryState>
      </Stack>
    </Paper>
  );
}
