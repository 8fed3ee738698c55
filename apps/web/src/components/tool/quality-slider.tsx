import { Group, Slider, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Compress's 10–90 % slider: the share of quality to keep. */
export function QualitySlider(props: { value: number; onChange(value: number): void }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={500} aria-hidden>
        {t('media.quality', { percent: props.value })}
      </Text>
      <Slider
        min={10}
        max={90}
        step={1}
        value={props.value}
        onChange={props.onChange}
        label={(value) => `${value}%`}
        thumbLabel={t('media.quality', { percent: props.value })}
        mt="xs"
      />
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {t('media.smaller')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('media.better')}
        </Text>
      </Group>
    </div>
  );
}
