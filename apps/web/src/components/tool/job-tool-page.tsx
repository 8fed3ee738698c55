import { Button, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ToolShell, type ToolKind, type ToolPageProps } from './tool-shell';
import { useJobRun } from './use-job-run';

/**
 * A tool run as a server job (audio, video, and upscale, which may take minutes): the shell,
 * with two progress bars (upload, then the server's processing) and Cancel at any time.
 * Options go in `options`.
 */
export function JobToolPage(props: ToolPageProps & { kind: ToolKind }) {
  const { t } = useTranslation();
  const run = useJobRun(props.endpoint);
  const uploadPercent = Math.round(run.upload * 100);
  const uploadLabel = t('tool.uploading', { percent: uploadPercent });
  const processingLabel =
    run.job?.status === 'queued'
      ? t('media.queued')
      : t('media.processing', { percent: run.progress });

  const status = (
    <>
      {(run.busy || run.phase === 'done') && (
        <Stack gap="xs" aria-live="polite">
          <Text size="sm">{uploadLabel}</Text>
          <Progress value={uploadPercent} aria-label={uploadLabel} />
          {run.phase !== 'uploading' && (
            <>
              <Text size="sm">{processingLabel}</Text>
              <Progress
                value={run.progress}
                color="teal"
                animated={run.phase === 'processing'}
                aria-label={processingLabel}
              />
            </>
          )}
        </Stack>
      )}
      {run.phase === 'cancelled' && (
        <Text size="sm" role="status">
          {t(run.cancelledCharged ? 'media.cancelledCharged' : 'media.cancelled')}
        </Text>
      )}
    </>
  );
  const actions = run.busy && (
    <Button
      variant="default"
      size="md"
      leftSection={<IconPlayerStop size={18} />}
      onClick={() => void run.cancel()}
    >
      {t('common.cancel')}
    </Button>
  );
  return <ToolShell {...props} run={{ ...run, status, actions }} />;
}
