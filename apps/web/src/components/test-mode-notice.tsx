import { Badge, Group, Paper, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePaymentMode } from '../lib/queries';

/** A small badge for the header while the sandbox takes payments. */
export function TestModeBadge() {
  const { t } = useTranslation();
  const mode = usePaymentMode();
  if (!mode.data?.testMode) return null;
  return (
    <Badge color="yellow" variant="light" leftSection={<IconFlask size={12} aria-hidden />}>
      {t('billing.testMode.badge')}
    </Badge>
  );
}

/** The banner on every payment page while the sandbox takes payments. */
export function TestModeBanner() {
  const { t } = useTranslation();
  const mode = usePaymentMode();
  if (!mode.data?.testMode) return null;
  // A standing notice, not an error (no alert role): screen readers read it in its place.
  return (
    <Paper
      bg="yellow.0"
      withBorder
      radius="md"
      p="sm"
      mb="md"
      style={{ borderColor: 'var(--mantine-color-yellow-4)' }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconFlask size={20} aria-hidden style={{ flexShrink: 0 }} />
        <div>
          <Text fw={700} size="sm">
            {t('billing.testMode.badge')}
          </Text>
          <Text size="sm">{t('billing.testMode.banner')}</Text>
        </div>
      </Group>
    </Paper>
  );
}
