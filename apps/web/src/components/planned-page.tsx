import { Badge, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/use-page-title';

/** A page whose feature is not built yet: it says plainly what it will hold. */
export function PlannedPage({ title, description }: { title: string; description: string }) {
  const { t } = useTranslation();
  usePageTitle(title, description);
  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="xl" radius="lg">
        <Stack gap="sm">
          <Badge variant="light" w="fit-content">
            {t('planned.badge')}
          </Badge>
          <Title order={1}>{title}</Title>
          <Text c="dimmed">{t('planned.lead')}</Text>
          <Text>{description}</Text>
        </Stack>
      </Paper>
    </Container>
  );
}
