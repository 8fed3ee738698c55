import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/use-page-title';

/** The page frame of login, sign-up and recovery: a titled card holding one account form. */
export function AuthCard(props: { title: string; subtitle?: string; children: ReactNode }) {
  usePageTitle(props.title, props.subtitle);
  return (
    <Container size={460} py={48}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {props.title}
            </Title>
            {props.subtitle && (
              <Text c="dimmed" size="sm" mt={4}>
                {props.subtitle}
              </Text>
            )}
          </div>
          {props.children}
        </Stack>
      </Paper>
    </Container>
  );
}
