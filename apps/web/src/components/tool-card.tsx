import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ToolEntry } from '@refract/contracts';
import { ToolIcon } from './tool-icon';

/** Title, icon, description and a link to the tool's page. */
export function ToolCard({ tool }: { tool: ToolEntry }) {
  const { t } = useTranslation();
  return (
    <Card
      component={Link}
      to={tool.route}
      withBorder
      padding="lg"
      radius="lg"
      className="tool-card"
    >
      <Group gap="sm" wrap="nowrap" mb="xs">
        <ThemeIcon variant="light" size="lg" radius="md">
          <ToolIcon route={tool.route} />
        </ThemeIcon>
        <Text fw={600}>{t(`tools.${tool.id}.title`)}</Text>
      </Group>
      <Text size="sm" c="dimmed">
        {t(`tools.${tool.id}.description`)}
      </Text>
    </Card>
  );
}
