import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The email input every account form starts with. */
export function EmailField(props: {
  value: string;
  onChange(value: string): void;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('auth.fields.email')}
      type="email"
      autoComplete="email"
      required
      value={props.value}
      error={props.error}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
