import { Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ToolShell, type ToolPageProps } from './tool-shell';
import { useToolRun } from './use-tool-run';

export type { ToolPageProps } from './tool-shell';

/**
 * An image tool: the shell, run inside the request (upload progress, then "processing").
 * The tool's options go in `options`; see ToolPageProps for the rest.
 */
export function ToolPage(props: ToolPageProps) {
  const { t } = useTranslation();
  const run = useToolRun(props.endpoint);
  const status = run.busy && (
    <div aria-live="polite">
      <Text size="sm" mb={4}>
        {run.phase === 'uploading'
          ? t('tool.uploading', { percent: Math.round(run.progress * 100) })
          : t('tool.processing')}
      </Text>
      <Progress
        value={run.phase === 'uploading' ? run.progress * 100 : 100}
        animated={run.phase === 'processing'}
      />
    </div>
  );
  return <ToolShell {...props} kind="image" run={{ ...run, status }} />;
}
