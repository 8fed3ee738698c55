import { Alert, Container, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ContactLink } from '../../components/contact-link';
import { useSession } from '../../lib/session/session-context';

/**
 * Says why a user was signed out when the server refused their session because an admin
 * suspended the account, and whom to contact (the site admin; the operator's link if set).
 */
export function SuspendedNotice() {
  const { t } = useTranslation();
  const { suspended, user } = useSession();
  if (!suspended || user) return null;
  return (
    <Container size="lg" pt="md">
      <Alert color="red" icon={<IconLock size={18} aria-hidden />} role="alert">
        <Group justify="space-between" gap="sm">
          <Text size="sm">{t('errors.account_suspended')}</Text>
          <ContactLink size="xs" variant="light" />
        </Group>
      </Alert>
    </Container>
  );
}
