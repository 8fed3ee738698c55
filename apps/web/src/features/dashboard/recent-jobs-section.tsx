import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecentJob, RecentJobs } from '@refract/contracts';
import { ErrorAlert } from '../../components/error-alert';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';
import { formatDayTime } from '../../lib/format';
import { jobResult } from '../../lib/jobs';
import { useErrorMessage } from '../../lib/use-error-message';

const STATUS_COLOR: Record<RecentJob['status'], string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'orange',
};

/**
 * The user's recent audio and video jobs, so a result is never out of reach: one whose page
 * was closed, or whose connection broke while it waited, can still be downloaded here.
 */
export function RecentJobsSection() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const jobs = useQuery({
    queryKey: ['recent-jobs'],
    queryFn: () => api<RecentJobs>('/api/jobs?limit=10'),
  });
  const [error, setError] = useState<string | null>(null);

  async function download(job: RecentJob) {
    try {
      const result = await jobResult(job.id);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(result.blob);
      link.download = result.filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
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
            // No scroll container: on a phone the download button must stay in view.
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {list.map((job) => (
                  <Table.Tr key={job.id}>
                    <Table.Td>
                      <Stack gap={2}>
                        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                          {t(`services.${job.service}`, { defaultValue: job.service })}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatDayTime(job.createdAt)}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[job.status]} variant="light">
                        {t(`dashboard.jobStatus.${job.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        {job.resultUrl && (
                          <Button
                            size="xs"
                            variant="light"
                            leftSection={<IconDownload size={16} />}
                            onClick={() => void download(job)}
                          >
                            {t('dashboard.downloadResult')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryState>
    </Paper>
  );
}
