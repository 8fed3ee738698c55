import { Group, Paper, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconEyeOff,
  IconFileTypography,
  IconLanguage,
  IconLock,
  IconServer,
  IconServerBolt,
  IconShieldCheck,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HomeSection } from './home-section';

const REASONS = [
  { key: 'formats', Icon: IconFileTypography },
  { key: 'server', Icon: IconServerBolt },
  { key: 'privacy', Icon: IconShieldCheck },
  { key: 'languages', Icon: IconLanguage },
] as const;

/** Promises the software keeps by itself, whoever runs it. */
const BADGES = [
  { key: 'passwords', Icon: IconLock },
  { key: 'deleted', Icon: IconTrash },
  { key: 'trackers', Icon: IconEyeOff },
  { key: 'selfHosted', Icon: IconServer },
] as const;

export function WhyUs() {
  const { t } = useTranslation();
  return (
    <HomeSection id="why-us" title={t('home.why.title')}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        {REASONS.map(({ key, Icon }) => (
          <Paper key={key} withBorder radius="lg" p="lg">
            <ThemeIcon variant="light" size="lg" radius="md" mb="sm">
              <Icon size={20} aria-hidden />
            </ThemeIcon>
            <Title order={3} size="h5" mb={4}>
              {t(`home.why.${key}.title`)}
            </Title>
            <Text size="sm" c="dimmed">
              {t(`home.why.${key}.body`)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Group
        component="ul"
        aria-label={t('home.trust.label')}
        justify="center"
        gap="md"
        mt="xl"
        p={0}
        style={{ listStyle: 'none' }}
      >
        {BADGES.map(({ key, Icon }) => (
          <Group key={key} component="li" gap={6} wrap="nowrap" className="trust-badge">
            <Icon size={18} aria-hidden color="var(--mantine-color-green-8)" />
            <Text size="sm" fw={600}>
              {t(`home.trust.${key}`)}
            </Text>
          </Group>
        ))}
      </Group>
    </HomeSection>
  );
}
