import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { usePageTitle } from '../../lib/use-page-title';

interface AuthCardProps {
  title: string;
  subtitle?: string;
  error?: string | null;
  notice?: ReactNode;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame shared by login, sign-up and recovery: a titled card holding one form. */
export function AuthCard({
  title,
  subtitle,
  error,
  notice,
  onSubmit,
  children,
  footer,
}: AuthCardProps) {
  usePageTitle(title, subtitle);
  return (
    <Container size={460} py={48}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm" mt={4}>
                {subtitle}
              </Text>
            )}
          </div>
          {notice}
          <ErrorAlert message={error ?? null} />
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="sm">{children}</Stack>
          </form>
          {footer}
        </Stack>
      </Paper>
    </Container>
  );
}
