import { Anchor, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TOOL_GROUPS } from '@refract/contracts';

export function Footer() {
  const { t } = useTranslation();
  const legal = [
    { to: '/terms-conditions', label: t('footer.terms') },
    { to: '/privacy-policy', label: t('footer.privacy') },
    { to: '/refund-policy', label: t('footer.refund') },
  ];
  return (
    <footer style={{ borderTop: '1px solid var(--mantine-color-gray-3)', marginTop: 'auto' }}>
      <Container size="lg" py="xl">
        <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="lg">
          <Stack gap={4}>
            <Text fw={800}>{t('app.name')}</Text>
            <Text size="sm" c="dimmed">
              {t('app.tagline')}
            </Text>
          </Stack>
          {TOOL_GROUPS.map((group) => (
            <Stack
              key={group.category}
              gap={4}
              component="nav"
              aria-label={t(`categories.${group.category}`)}
            >
              <Text fw={600} size="sm">
                {t(`categories.${group.category}`)}
              </Text>
              {group.tools.map((tool) => (
                <Anchor key={tool.id} component={Link} to={tool.route} size="sm" c="dimmed">
                  {t(`tools.${tool.id}.title`)}
                </Anchor>
              ))}
            </Stack>
          ))}
          <Stack gap={4} component="nav" aria-label={t('footer.legal')}>
            <Text fw={600} size="sm">
              {t('footer.legal')}
            </Text>
            {legal.map((item) => (
              <Anchor key={item.to} component={Link} to={item.to} size="sm" c="dimmed">
                {item.label}
              </Anchor>
            ))}
          </Stack>
        </SimpleGrid>
        <Group justify="center" mt="xl">
          <Text size="xs" c="dimmed">
            {t('footer.copyright', { year: new Date().getFullYear() })}
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
