import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The email input every account form starts with. */
export function EmailField(props: {
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Focused first when its dialog opens (Mantine's focus trap looks for data-autofocus). */
  autoFocusInDialog?: boolean;
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
      data-autofocus={props.autoFocusInDialog || undefined}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
