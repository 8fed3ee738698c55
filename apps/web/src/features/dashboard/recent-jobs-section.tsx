import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Batch, JobStatus, RecentJob, RecentJobs } from '@refract/contracts';
import { ErrorAlert } from '../../components/error-alert';
import { QueryState } from '../../components/query-state';
import { UserText } from '../../components/user-text';
import { api } from '../../lib/api';
import { saveDownload } from '../../lib/save-file';
import { formatBytes, formatDayTime, leftToRight } from '../../lib/format';
import { useErrorMessage } from '../../lib/use-error-message';

const STATUS_COLOR: Record<JobStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'orange',
};

/**
 * "1.2 MB → 640 KB", or the input's size alone while there is no result; isolated left to
 * right, or an Arabic page reorders it.
 */
const sizes = (input: number, output: number | null) =>
  leftToRight(
    output === null ? formatBytes(input) : `${formatBytes(input)} → ${formatBytes(output)}`,
  );

/**
 * The user's recent jobs: audio and video files, and batches of any tool as one entry that
 * opens on its files. A result is never out of reach: one whose page was closed, or whose
 * connection broke while it waited, can still be downloaded here.
 */
export function RecentJobsSection() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const jobs = useQuery({
    queryKey: ['recent-jobs'],
    queryFn: () => api<RecentJobs>('/api/jobs?limit=10'),
  });
  const [error, setError] = useState<string | null>(null);

  async function download(path: string) {
    try {
      await saveDownload(path);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <Paper withBorder radius="lg" p="lg" mt="lg">
      <Title order={2} size="h4" mb="xs">
        {t('dashboard.recentJobs')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('dashboard.recentJobsHint')}
      </Text>
      <ErrorAlert message={error} />
      <QueryState query={jobs}>
        {({ jobs: list }) =>
          list.length === 0 ? (
            <Text size="sm">{t('dashboard.noJobs')}</Text>
          ) : (
            // Rows that wrap, not a table: on a phone the download button must stay in view.
            <Stack gap="sm" data-testid="recent-jobs">
              {list.map((job) => (
                <JobRow key={job.id} job={job} onDownload={(path) => void download(path)} />
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Paper>
  );
}

function JobRow({ job, onDownload }: { job: RecentJob; onDownload(path: string): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const tool = t(`tools.${job.tool}.title`, { defaultValue: job.service });
  const details = job.batch
    ? t('dashboard.batchCounts', { done: job.batch.done, failed: job.batch.failed })
    : sizes(job.inputBytes, job.outputBytes);
  const name = job.batch
    ? t('dashboard.batchOf', { count: job.batch.total })
    : (job.inputName ?? job.filename ?? tool);

  return (
    <Paper withBorder radius="md" p="sm" data-testid="recent-job">
      <EntryLine
        name={job.batch ? name : <UserText>{name}</UserText>}
        details={
          <>
            {tool} · {details} · <bdi>{formatDayTime(job.createdAt)}</bdi>
          </>
        }
        status={job.status}
      >
        {job.batch && (
          <Button
            size="xs"
            variant="default"
            aria-expanded={open}
            rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            onClick={() => setOpen(!open)}
          >
            {t(open ? 'dashboard.hideFiles' : 'dashboard.showFiles')}
          </Button>
        )}
        {job.resultUrl && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={16} />}
            onClick={() => onDownload(job.resultUrl!)}
          >
            {t(job.batch ? 'dashboard.downloadAll' : 'dashboard.downloadResult')}
          </Button>
        )}
      </EntryLine>
      {job.batch && open && <BatchFiles id={job.batch.id} onDownload={onDownload} />}
    </Paper>
  );
}

/** The files of an opened batch, each with its own state, sizes and download. */
function BatchFiles({ id, onDownload }: { id: string; onDownload(path: string): void }) {
  const { t } = useTranslation();
  const batch = useQuery({
    queryKey: ['batch', id],
    queryFn: () => api<Batch>(`/api/batches/${id}`),
  });
  return (
    <QueryState query={batch}>
      {({ files }) => (
        <Stack
          gap="xs"
          mt="sm"
          ps="md"
          style={{ borderInlineStart: '2px solid var(--mantine-color-gray-3)' }}
        >
          {files.map((file) => (
            <EntryLine
              key={file.index}
              name={<UserText>{file.name}</UserText>}
              details={
                file.error
                  ? t(`errors.${file.error.code}`, { defaultValue: file.error.message })
                  : sizes(file.inputBytes, file.outputBytes)
              }
              status={file.status}
            >
              {file.status === 'done' && (
                <Button
                  size="xs"
                  variant="subtle"
                  leftSection={<IconDownload size={16} />}
                  onClick={() => onDownload(`/api/batches/${id}/files/${file.index}`)}
                >
                  {t('dashboard.downloadResult')}
                </Button>
              )}
            </EntryLine>
          ))}
        </Stack>
      )}
    </QueryState>
  );
}

/** One line of the list: a name, what it is, its state badge and its buttons. */
function EntryLine(props: {
  name: ReactNode;
  details: ReactNode;
  status: JobStatus;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {props.name}
        </Text>
        <Text size="xs" c="dimmed">
          {props.details}
        </Text>
      </Stack>
      <Group gap="xs" wrap="wrap">
        <Badge color={STATUS_COLOR[props.status]} variant="light">
          {t(`dashboard.jobStatus.${props.status}`)}
        </Badge>
        {props.children}
      </Group>
    </Group>
  );
}
