import { Group, Paper, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePaymentMode } from '../lib/queries';
import { TEST_CARD_VALUES } from '../lib/format';

/** A thin strip above the header, on every page, while the sandbox takes payments. */
export function TestModeStrip() {
  const { t } = useTranslation();
  const mode = usePaymentMode();
  if (!mode.data?.testMode) return null;
  return (
    <Group bg="yellow.1" justify="center" gap={6} py={2} px="sm" wrap="nowrap">
      <IconFlask size={14} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="xs" fw={600} ta="center">
        {t('billing.testMode.strip')}
      </Text>
    </Group>
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
          <Text size="sm">{t('billing.testMode.banner', TEST_CARD_VALUES)}</Text>
        </div>
      </Group>
    </Paper>
  );
}
