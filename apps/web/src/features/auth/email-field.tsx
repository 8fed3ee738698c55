import { TextInput } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** The email input every account form starts with. */
export function EmailField(props: {
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Focused first when its dialog opens. */
  autoFocusInDialog?: boolean;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  // Mantine's focus trap looks for data-autofocus once, as the dialog opens. The dialog's forms
  // load apart from the first script and can arrive after that (a slow network, a busy
  // phone), so the field also takes the focus when it arrives.
  useEffect(() => {
    if (props.autoFocusInDialog) input.current?.focus();
  }, [props.autoFocusInDialog]);
  return (
    <TextInput
      ref={input}
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
