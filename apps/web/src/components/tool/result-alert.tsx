import { Alert, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format';
import { DownloadButton } from './download-button';
import type { ToolResult } from './use-tool-run';

/** "Your file is ready": sizes before and after (when given) and the download. */
export function ResultAlert({
  result,
  before,
  children,
}: {
  result: ToolResult;
  before?: number;
  /** The tool's own details, above the sizes. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color="green"
      role="status"
      title={t('tool.ready')}
      // Green on the light green background is under 3:1; the body's colour reads (WCAG AA).
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        {(children || before !== undefined) && (
          <Stack gap={2}>
            {children}
            {before !== undefined && (
              <Text size="sm">
                {t('tool.sizes', { before: formatBytes(before), after: formatBytes(result.size) })}
              </Text>
            )}
          </Stack>
        )}
        <DownloadButton result={result} />
      </Group>
    </Alert>
  );
}
