import { Alert, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format';
import { DownloadButton } from './download-button';
import type { ToolResult } from './use-tool-run';

/** "Your file is ready": sizes before and after (when given) and the download. */
export function ResultAlert({ result, before }: { result: ToolResult; before?: number }) {
  const { t } = useTranslation();
  return (
    <Alert color="green" role="status" title={t('tool.ready')}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        {before !== undefined && (
          <Text size="sm">
            {t('tool.sizes', { before: formatBytes(before), after: formatBytes(result.size) })}
          </Text>
        )}
        <DownloadButton result={result} />
      </Group>
    </Alert>
  );
}
