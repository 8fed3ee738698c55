import { Group, NumberInput, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface TrimValues {
  start: number | '';
  end: number | '';
}

/** Start and end in seconds, with the file's length shown and bounding both. */
export function TrimFields(props: {
  value: TrimValues;
  onChange(value: TrimValues): void;
  duration: number | null;
}) {
  const { t } = useTranslation();
  const max = props.duration ?? undefined;
  const seconds = (value: string | number) => (value === '' ? '' : Number(value));
  return (
    <div>
      <Group grow align="flex-start">
        <NumberInput
          label={t('mediaOptions.start')}
          min={0}
          max={max}
          step={0.1}
          decimalScale={3}
          value={props.value.start}
          onChange={(start) => props.onChange({ ...props.value, start: seconds(start) })}
        />
        <NumberInput
          label={t('mediaOptions.end')}
          min={0}
          max={max}
          step={0.1}
          decimalScale={3}
          placeholder={props.duration ? props.duration.toFixed(2) : undefined}
          value={props.value.end}
          onChange={(end) => props.onChange({ ...props.value, end: seconds(end) })}
        />
      </Group>
      {props.duration !== null && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('mediaOptions.length', { seconds: props.duration.toFixed(2) })}
        </Text>
      )}
    </div>
  );
}

/** The trimmed length, for the expected size. */
export function trimmedSeconds(value: TrimValues, duration: number | null): number | null {
  if (duration === null) return null;
  const end = value.end === '' ? duration : Math.min(value.end, duration);
  return Math.max(0, end - (value.start === '' ? 0 : value.start));
}

export function appendTrim(form: FormData, value: TrimValues) {
  if (value.start !== '' && value.start > 0) form.append('start', String(value.start));
  if (value.end !== '') form.append('end', String(value.end));
}
