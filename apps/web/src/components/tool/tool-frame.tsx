import { Container, Paper, Stack } from '@mantine/core';
import { useEffect, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { replayEarlyTyping } from '../../lib/early-typing';
import { PageHeader } from '../page-header';

/** A tool page's frame: its title and description, then one form card. */
export function ToolFrame(props: {
  toolId: string;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  // Runs after the fields inside have hydrated (children's effects run first).
  useEffect(replayEarlyTyping, []);
  return (
    <Container size="md" py="xl">
      <PageHeader
        title={t(`tools.${props.toolId}.title`)}
        subtitle={t(`tools.${props.toolId}.description`)}
      />
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'md', sm: 'xl' }}
        component="form"
        onSubmit={props.onSubmit}
        noValidate
      >
        <Stack>{props.children}</Stack>
      </Paper>
    </Container>
  );
}
