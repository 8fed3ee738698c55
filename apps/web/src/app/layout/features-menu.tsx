import { Button, Menu, ScrollArea } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { IMAGE_TOOLS } from '@refract/contracts';
import { ToolIcon } from '../../components/tool-icon';

/** The nine image tools; opens on hover and on click or keyboard, at most 400 px high. */
export function FeaturesMenu() {
  const { t } = useTranslation();
  return (
    <Menu trigger="click-hover" openDelay={50} closeDelay={150} position="bottom-start" shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          rightSection={<IconChevronDown size={16} aria-hidden />}
        >
          {t('nav.features')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <ScrollArea.Autosize mah={400} type="auto">
          {IMAGE_TOOLS.map((tool) => (
            <Menu.Item
              key={tool.id}
              component={Link}
              to={tool.route}
              leftSection={<ToolIcon route={tool.route} size={18} />}
            >
              {t(`tools.${tool.id}.title`)}
            </Menu.Item>
          ))}
        </ScrollArea.Autosize>
      </Menu.Dropdown>
    </Menu>
  );
}
