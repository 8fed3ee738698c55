import { Button, type ButtonProps } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../lib/queries';

/** The operator's chat-messenger link (CONTACT_URL); nothing at all when it is not set. */
export function ContactLink(props: ButtonProps) {
  const { t } = useTranslation();
  const contactUrl = useSite().data?.contactUrl;
  if (!contactUrl) return null;
  return (
    <Button
      component="a"
      href={contactUrl}
      target="_blank"
      rel="noopener noreferrer"
      leftSection={<IconMessageCircle size={18} aria-hidden />}
      {...props}
    >
      {t('home.hero.contact')}
    </Button>
  );
}
