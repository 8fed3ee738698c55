import { Accordion } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The audio and video options, folded by default: the format alone is the common case. */
export function MoreOptions(props: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Accordion variant="contained" chevronPosition="right">
      <Accordion.Item value="options">
        <Accordion.Control>{t('mediaOptions.more')}</Accordion.Control>
        <Accordion.Panel>{props.children}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
