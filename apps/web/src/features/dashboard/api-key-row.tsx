import { Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '@refract/contracts';
import { UserText } from '../../components/user-text';

/** One key: its name, the characters it starts with, when it was made and last used. */
export function ApiKeyRow({
  apiKey,
  created,
  lastUsed,
  revoking,
  onRevoke,
}: {
  apiKey: ApiKey;
  created: string;
  lastUsed: string | null;
  revoking: boolean;
  onRevoke(): void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="api-key">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <UserText>{apiKey.name}</UserText>
          </Text>
          <Code dir="ltr" style={{ alignSelf: 'flex-start' }}>
            {apiKey.prefix}…
          </Code>
          <Text size="xs" c="dimmed">
            {t('dashboard.apiKeys.created', { date: created })} ·{' '}
            {lastUsed
              ? t('dashboard.apiKeys.lastUsed', { date: lastUsed })
              : t('dashboard.apiKeys.neverUsed')}
          </Text>
        </Stack>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={revoking}
          onClick={onRevoke}
          aria-label={t('dashboard.apiKeys.revokeNamed', { name: apiKey.name })}
        >
          {t('dashboard.apiKeys.revoke')}
        </Button>
      </Group>
    </Paper>
  );
}
