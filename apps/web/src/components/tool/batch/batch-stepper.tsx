import { Button, Group, Stack, Text, useDirection } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Steps the editor through a batch's files ("File 3 of 10") so each can be adjusted, and
 * makes the shown file's setting every file's. Plain buttons: Tab and Enter or Space work.
 */
export function BatchStepper(props: {
  index: number;
  count: number;
  name: string;
  /** The shown file has a setting of its own (not the first file's). */
  own: boolean;
  onIndex(index: number): void;
  onApplyToAll(): void;
}) {
  const { t } = useTranslation();
  const { index, count } = props;
  // Chevrons point the way the list goes: in a right-to-left page "previous" points right.
  const rtl = useDirection().dir === 'rtl';
  const Back = rtl ? IconChevronRight : IconChevronLeft;
  const Forward = rtl ? IconChevronLeft : IconChevronRight;
  const setting =
    index === 0
      ? t('batch.firstSetting')
      : props.own
        ? t('batch.ownSetting')
        : t('batch.followsFirst');

  return (
    <Stack gap={6} data-testid="batch-stepper">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Button
          variant="default"
          leftSection={<Back size={18} aria-hidden />}
          disabled={index === 0}
          onClick={() => props.onIndex(index - 1)}
        >
          {t('batch.previous')}
        </Button>
        <Text fw={500} ta="center" aria-live="polite">
          {t('batch.fileOf', { index: index + 1, count })}
        </Text>
        <Button
          variant="default"
          rightSection={<Forward size={18} aria-hidden />}
          disabled={index === count - 1}
          onClick={() => props.onIndex(index + 1)}
        >
          {t('batch.next')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        <bdi>{props.name}</bdi> · {setting}
      </Text>
      <Button variant="light" size="sm" onClick={props.onApplyToAll} style={{ alignSelf: 'start' }}>
        {t('batch.applyToAll')}
      </Button>
    </Stack>
  );
}
