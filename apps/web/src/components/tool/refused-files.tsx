import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UserText } from '../user-text';

/** A file the picker left out, and why (too large, not this tool's kind). */
export interface RefusedFile {
  name: string;
  reason: string;
}

/** Names every file of the last pick that was left out, each with its reason. */
export function RefusedFiles(props: { files: RefusedFile[]; onDismiss(): void }) {
  const { t } = useTranslation();
  if (props.files.length === 0) return null;
  return (
    <Alert
      color="yellow"
      role="alert"
      title={t('tool.refused', { count: props.files.length })}
      withCloseButton
      closeButtonLabel={t('tool.refusedDismiss')}
      onClose={props.onDismiss}
      data-testid="refused-files"
      // Yellow on the light yellow background is under 3:1; the body's colour reads (WCAG AA).
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <List size="sm" spacing={2}>
        {props.files.map((file, index) => (
          <List.Item key={`${index}-${file.name}`} style={{ overflowWrap: 'anywhere' }}>
            <UserText>{file.name}</UserText>: {file.reason}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
