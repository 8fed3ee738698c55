import { Button, Menu, ScrollArea } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { Fragment, useRef, useState, type FocusEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TOOL_GROUPS } from '@refract/contracts';
import { ToolIcon } from '../../components/tool-icon';

/**
 * Every tool, grouped (image, audio, video), at most 400 px high. It opens on hover, on click, and when the button
 * gets keyboard focus, so keyboard users meet it the way mouse users do.
 */
export function FeaturesMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const dropdown = useRef<HTMLDivElement>(null);
  // Focus coming back from the list (Escape, or Shift+Tab) must not reopen what was just closed.
  const fromDropdown = (event: FocusEvent) =>
    event.relatedTarget instanceof Node && dropdown.current?.contains(event.relatedTarget);

  return (
    <Menu
      trigger="click-hover"
      opened={opened}
      onChange={setOpened}
      openDelay={50}
      closeDelay={150}
      position="bottom-start"
      shadow="md"
    >
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          onFocus={(event) => {
            if (event.currentTarget.matches(':focus-visible') && !fromDropdown(event)) {
              setOpened(true);
            }
          }}
          // ArrowDown enters the list even while it is still opening (its items may not be
          // mounted yet when the key arrives), so the first item is focused once they are.
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown') return;
            event.preventDefault();
            setOpened(true);
            const focusFirst = (tries: number) => {
              const first = dropdown.current?.querySelector<HTMLElement>('[role="menuitem"]');
              if (first) first.focus();
              else if (tries > 0) requestAnimationFrame(() => focusFirst(tries - 1));
            };
            requestAnimationFrame(() => focusFirst(30));
          }}
        >
          {t('nav.features')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown ref={dropdown}>
        <ScrollArea.Autosize mah={400} type="auto">
          {TOOL_GROUPS.map((group) => (
            <Fragment key={group.category}>
              <Menu.Label>{t(`categories.${group.category}`)}</Menu.Label>
              {group.tools.map((tool) => (
                <Menu.Item
                  key={tool.id}
                  component={Link}
                  to={tool.route}
                  leftSection={<ToolIcon route={tool.route} size={18} />}
                >
                  {t(`tools.${tool.id}.title`)}
                </Menu.Item>
              ))}
            </Fragment>
          ))}
        </ScrollArea.Autosize>
      </Menu.Dropdown>
    </Menu>
  );
}
