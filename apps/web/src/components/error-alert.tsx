import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** An error in the user's language, announced to screen readers. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}
