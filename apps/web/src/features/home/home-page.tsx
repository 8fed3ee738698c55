import { Container, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TOOLS, type ToolCategory } from '@refract/contracts';
import { ToolCard } from '../../components/tool-card';
import { usePageTitle } from '../../lib/use-page-title';

const CATEGORIES: ToolCategory[] = ['image', 'audio', 'video'];

export function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t('home.title'));
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" align="center" ta="center" py="xl">
        <Title order={1} maw={720}>
          {t('home.title')}
        </Title>
        <Text size="lg" c="dimmed" maw={640}>
          {t('home.subtitle')}
        </Text>
      </Stack>
      <Tabs defaultValue="image" keepMounted={false}>
        <Tabs.List mb="lg">
          {CATEGORIES.map((category) => (
            <Tabs.Tab key={category} value={category}>
              {t(`categories.${category}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {CATEGORIES.map((category) => (
          <Tabs.Panel key={category} value={category}>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
              {TOOLS.filter((tool) => tool.category === category).map((tool) => (
                <ToolCard key={tool.id} tool={tool} />
              ))}
            </SimpleGrid>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Container>
  );
}
