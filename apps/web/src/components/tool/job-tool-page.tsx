import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatWait } from '../../lib/format';
import { useSite } from '../../lib/queries';
import type { TransferProgress } from '../../lib/resumable-upload';
import { ToolShell, type ToolKind, type ToolPageProps } from './tool-shell';
import { useJobRun } from './use-job-run';

/** What the upload line says: sent and total, then speed and time left, a pause, or a drop. */
function useTransferLabel(transfer: TransferProgress | null, paused: boolean, percent: number) {
  const { t } = useTranslation();
  const kept = useSite().data?.uploadKeptSeconds;
  if (!transfer) return t('tool.uploading', { percent });
  if (paused) return t('media.transfer.paused', { percent, time: formatWait(kept ?? 600) });
  if (transfer.reconnecting) return t('media.transfer.reconnecting', { percent });
  const sent = t('media.transfer.progress', {
    sent: formatBytes(transfer.sent),
    total: formatBytes(transfer.total),
    percent,
  });
  const speed = transfer.bytesPerSecond;
  if (!speed || transfer.sent >= transfer.total) return sent;
  const time = formatWait((transfer.total - transfer.sent) / speed);
  return `${sent} · ${t('media.transfer.speed', { speed: formatBytes(speed), time })}`;
}

/**
 * A tool run as a server job (audio, video, and upscale, which may take minutes): the shell,
 * with two progress bars (upload, then the server's processing) and Cancel at any time. Audio
 * and video go as resumable uploads: speed and time left, Pause, and a resume by itself after
 * a dropped connection. Options go in `options`.
 */
export function JobToolPage(props: ToolPageProps & { kind: ToolKind }) {
  const { t } = useTranslation();
  const run = useJobRun(props.endpoint, { resumable: props.kind !== 'image' });
  const uploadPercent = Math.floor(run.upload * 100);
  const uploadLabel = useTransferLabel(run.transfer, run.paused, uploadPercent);
  const processingLabel =
    run.job?.status === 'queued'
      ? t('media.queued')
      : t('media.processing', { percent: run.progress });

  const status = (
    <>
      {(run.busy || run.phase === 'done') && (
        <Stack gap="xs" aria-live="polite">
          <Text size="sm">{uploadLabel}</Text>
          <Progress
            value={uploadPercent}
            aria-label={uploadLabel}
            color={run.paused || run.transfer?.reconnecting ? 'gray' : undefined}
          />
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
    <Group gap="sm">
      {run.canPause && (
        <Button
          variant="default"
          size="md"
          leftSection={run.paused ? <IconPlayerPlay size={18} /> : <IconPlayerPause size={18} />}
          onClick={run.paused ? run.resume : run.pause}
        >
          {t(run.paused ? 'media.transfer.resume' : 'media.transfer.pause')}
        </Button>
      )}
      <Button
        variant="default"
        size="md"
        leftSection={<IconPlayerStop size={18} />}
        onClick={() => void run.cancel()}
      >
        {t('common.cancel')}
      </Button>
    </Group>
  );
  return <ToolShell {...props} run={{ ...run, status, actions }} />;
}
