import { SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAdjustments, IconDownload, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HomeSection } from './home-section';

const STEPS = [
  { key: 'upload', Icon: IconUpload },
  { key: 'choose', Icon: IconAdjustments },
  { key: 'download', Icon: IconDownload },
] as const;

export function HowItWorks() {
  const { t } = useTranslation();
  return (
    <HomeSection id="how-it-works" title={t('home.how.title')}>
      <SimpleGrid component="ol" cols={{ base: 1, sm: 3 }} spacing="xl" p={0} m={0}>
        {STEPS.map(({ key, Icon }) => (
          <Stack key={key} component="li" align="center" ta="center" gap="xs">
            <ThemeIcon size={56} radius="xl" variant="light">
              <Icon size={28} aria-hidden />
            </ThemeIcon>
            <Title order={3} size="h4">
              {t(`home.how.${key}.title`)}
            </Title>
            <Text c="dimmed" size="sm" maw={320}>
              {t(`home.how.${key}.body`)}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </HomeSection>
  );
}
