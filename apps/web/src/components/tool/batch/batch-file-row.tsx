import { ActionIcon, Badge, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { BatchFile } from '@refract/contracts';
import { ApiError } from '../../../lib/api';
import { formatBytes } from '../../../lib/format';
import { useErrorMessage } from '../../../lib/use-error-message';

export type RowStatus = 'waiting' | 'skipped' | BatchFile['status'];

const COLOR: Record<RowStatus, string> = {
  waiting: 'gray',
  skipped: 'gray',
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'orange',
};

/** One file of a batch: its name, size before, status, progress, size after, download, error. */
export function BatchFileRow(props: {
  file: File;
  status: RowStatus;
  state?: BatchFile;
  onDownload?(): void;
  onRemove?(): void;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { file, state, status } = props;
  const after = state?.outputBytes ?? null;
  const saved = after !== null ? Math.round((1 - after / file.size) * 100) : null;
  const error = state?.error
    ? errorMessage(new ApiError(0, state.error.code as ApiError['code'], state.error.message))
    : null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="batch-row" data-status={status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>
            <bdi>{file.name}</bdi>
          </Text>
          <Group gap={6} wrap="nowrap">
            <Badge color={COLOR[status]} variant="light" style={{ flexShrink: 0 }}>
              {t(`batch.status.${status}`)}
            </Badge>
            {props.onDownload && (
              <ActionIcon
                variant="light"
                onClick={props.onDownload}
                aria-label={t('batch.downloadOne', { name: state?.filename ?? file.name })}
              >
                <IconDownload size={16} />
              </ActionIcon>
            )}
            {props.onRemove && (
              <ActionIcon
                variant="subtle"
                color="gray"
                onClick={props.onRemove}
                aria-label={t('batch.remove', { name: file.name })}
              >
                <IconX size={16} />
              </ActionIcon>
            )}
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {after !== null && saved !== null
            ? t(saved >= 0 ? 'batch.sizesSaved' : 'batch.sizesLarger', {
                before: formatBytes(file.size),
                after: formatBytes(after),
                percent: Math.abs(saved),
              })
            : formatBytes(file.size)}
        </Text>
        {(status === 'queued' || status === 'running') && (
          <Progress
            value={state?.progress ?? 0}
            animated={status === 'running'}
            size="sm"
            aria-label={t('batch.progress', { name: file.name, percent: state?.progress ?? 0 })}
          />
        )}
        {error && (
          <Text size="xs" c="red.8" role="status">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
