import { Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';

/**
 * One account form (log in, sign up, recover) with its notice, error and footer: the same on
 * its own page (in an AuthCard) and in the dialog a tool page opens for a visitor.
 */
export function AuthForm(props: {
  error?: string | null;
  notice?: ReactNode;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Stack gap="md">
      {props.notice}
      <ErrorAlert message={props.error ?? null} />
      <form onSubmit={props.onSubmit} noValidate>
        <Stack gap="sm">{props.children}</Stack>
      </form>
      {props.footer}
    </Stack>
  );
}
