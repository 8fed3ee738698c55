import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'), t('notFound.body'));
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.body')}</Text>
        <Button component={Link} to="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Container>
  );
}
