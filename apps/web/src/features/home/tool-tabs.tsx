import { SimpleGrid, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IMAGE_TOOLS, toolById, type ToolId } from '@refract/contracts';
import { ToolCard } from '../../components/tool-card';
import { formatBytes } from '../../lib/format';
import { useFileLimit } from '../../lib/file-limit';
import classes from './home.module.css';

/** The home page's tab bar: image operations, then one tab per audio and video tool. */
const MEDIA_TABS = ['convertAudio', 'convertVideo', 'compressAudio', 'compressVideo'] as const;

function MediaToolPanel({ id }: { id: ToolId }) {
  const { t } = useTranslation();
  const tool = toolById(id);
  const limit = useFileLimit(tool);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <ToolCard tool={tool} />
      <Text c="dimmed" size="sm" style={{ alignSelf: 'center' }}>
        {limit === undefined
          ? t(`media.hintByPlan.${tool.category}`)
          : t(`media.hint.${tool.category}`, { limit: formatBytes(limit) })}
      </Text>
    </SimpleGrid>
  );
}

export function ToolTabs() {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="image" keepMounted={false} id="tools" pt="xl">
      <Tabs.List mb="lg" aria-label={t('home.tabs.label')} className={classes.tabList}>
        <Tabs.Tab value="image">{t('home.tabs.image')}</Tabs.Tab>
        {MEDIA_TABS.map((id) => (
          <Tabs.Tab key={id} value={id}>
            {t(`home.tabs.${id}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="image">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          {IMAGE_TOOLS.map((tool) => (
            <ToolCard key={tool.id} tool={tool} />
          ))}
        </SimpleGrid>
      </Tabs.Panel>
      {MEDIA_TABS.map((id) => (
        <Tabs.Panel key={id} value={id}>
          <MediaToolPanel id={id} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
