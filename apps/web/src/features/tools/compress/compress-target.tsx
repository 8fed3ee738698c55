import { Checkbox, Group, NumberInput, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { KB, MB } from '@refract/contracts';

export type SizeUnit = 'KB' | 'MB';

export interface TargetSize {
  amount: number | '';
  unit: SizeUnit;
  allowResize: boolean;
}

/** The bytes a target means, or undefined when none is set (1 KB = 1000 bytes, as systems show). */
export function targetBytes({ amount, unit }: TargetSize): number | undefined {
  if (amount === '' || amount <= 0) return undefined;
  return Math.round(amount * (unit === 'MB' ? MB : KB));
}

/** "Compress to at most N KB/MB", and whether the dimensions may shrink to get there. */
export function CompressTarget(props: { value: TargetSize; onChange(value: TargetSize): void }) {
  const { t } = useTranslation();
  const { value, onChange } = props;
  return (
    <>
      <Group align="end" gap="xs" wrap="nowrap">
        <NumberInput
          label={t('compress.target')}
          description={t('compress.targetHint')}
          min={1}
          max={value.unit === 'MB' ? 100 : 100_000}
          decimalScale={1}
          value={value.amount}
          onChange={(v) => onChange({ ...value, amount: v === '' ? '' : Number(v) })}
          placeholder={t('compress.noTarget')}
          style={{ flex: 1 }}
        />
        <Select
          aria-label={t('compress.targetUnit')}
          data={['KB', 'MB']}
          value={value.unit}
          allowDeselect={false}
          onChange={(unit) => onChange({ ...value, unit: (unit as SizeUnit) ?? 'KB' })}
          w={84}
        />
      </Group>
      {targetBytes(value) !== undefined && (
        <Checkbox
          label={t('compress.allowResize')}
          checked={value.allowResize}
          onChange={(e) => onChange({ ...value, allowResize: e.currentTarget.checked })}
        />
      )}
    </>
  );
}
