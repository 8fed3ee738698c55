import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ToolResult } from './use-tool-run';

/** Saves a tool's result under the name the server gave it. */
export function DownloadButton({ result }: { result: ToolResult }) {
  const { t } = useTranslation();
  return (
    <Button
      component="a"
      href={result.url}
      download={result.filename}
      leftSection={<IconDownload size={18} />}
      // A long file name wraps on a phone instead of running out of its card.
      maw="100%"
      h="auto"
      mih={36}
      styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', paddingBlock: 6 } }}
    >
      {t('tool.download', { name: result.filename })}
    </Button>
  );
}
