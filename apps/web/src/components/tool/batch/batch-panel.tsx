import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconFileZip, IconPlayerStop } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UNLIMITED, type ToolEntry, type User } from '@refract/contracts';
import { saveDownload } from '../../../lib/save-file';
import { formatBytes } from '../../../lib/format';
import { userStatsQuery, useUserStats } from '../../../lib/queries';
import { useWhenSignedIn } from '../../../lib/session/account-gate';
import { useSession } from '../../../lib/session/session-context';
import { useErrorMessage } from '../../../lib/use-error-message';
import { ErrorAlert } from '../../error-alert';
import { BatchFileRow, type RowStatus } from './batch-file-row';
import { planBatch } from './batch-plan';
import { useBatchRun } from './use-batch-run';

/**
 * Many files through one tool: what the batch needs against what is left, then one upload,
 * each file's progress and result, and every result as one zip. The settings on the page
 * apply to every file. Only the files the plan and the uses left cover are ever uploaded.
 */
export function BatchPanel(props: {
  tool: ToolEntry;
  endpoint: string;
  files: File[];
  /** The batch's fields; `count`: how many of the files are sent (the first ones). */
  fields(form: FormData, count: number): void;
  /** Each file may have its own setting in the editor (then not every setting is shared). */
  perFile?: boolean;
  submitLabel: string;
  /** The start button says "… and download": the zip is saved when the batch ends. */
  downloadOnDone?: boolean;
  /** A check before sending (e.g. nothing to blur yet): a message stops the batch. */
  validate?(): string | null;
  onRemove(index: number): void;
  onClear(): void;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const stats = useUserStats();
  const whenSignedIn = useWhenSignedIn();
  const run = useBatchRun(props.endpoint);
  const plan = planBatch(props.files, props.tool.services, stats.data);
  /** Reading the uses left of an account just signed in, before the batch starts. */
  const [planning, setPlanning] = useState(false);
  const started = run.phase !== 'idle' || run.batch !== null;
  const sent = started ? (run.batch?.counts.total ?? plan.runnable) : plan.runnable;
  const totalBytes = props.files.reduce((sum, f) => sum + f.size, 0);

  function start(count: number) {
    const invalid = props.validate?.() ?? null;
    if (invalid) return void run.reset();
    void run.run((form) => props.fields(form, count), props.files.slice(0, count));
  }

  /**
   * Plans again with the account's own uses left (a visitor may have just signed in), so
   * nothing is uploaded only to be refused; when fewer can run than were asked for, the
   * plan's notice says so and the batch waits for the user's choice.
   */
  async function startAs(account: User, count: number) {
    setPlanning(true);
    const fresh = account.isAdmin
      ? undefined
      : await queryClient.fetchQuery(userStatsQuery(account._id)).catch(() => undefined);
    setPlanning(false);
    if (planBatch(props.files, props.tool.services, fresh).runnable >= count) start(count);
  }

  const statusOf = (index: number): RowStatus => {
    if (index >= sent) return 'skipped';
    return run.batch?.files.find((f) => f.index === index)?.status ?? 'waiting';
  };

  const leftText = !user
    ? t('batch.needsAccount', { count: plan.needed })
    : plan.left === UNLIMITED
      ? t('batch.needsUnlimited', { count: plan.needed })
      : t('batch.needs', { count: plan.needed, left: plan.left });
  const cutText =
    plan.cut === 'uses'
      ? t('batch.cutUses', { count: plan.runnable })
      : plan.cut === 'files'
        ? t('batch.cutFiles', { count: plan.maxFiles })
        : plan.cut === 'bytes'
          ? t('batch.cutBytes', { size: formatBytes(plan.maxBytes) })
          : null;
  const invalid = props.validate?.() ?? null;
  const counts = run.batch?.counts;
  const zip = run.batch ? `/api/batches/${run.batch.id}/zip` : null;
  const ended = run.phase === 'done' && (counts?.done ?? 0) > 0;
  const { downloadOnDone } = props;
  useEffect(() => {
    if (downloadOnDone && ended && zip) void saveDownload(zip);
  }, [downloadOnDone, ended, zip]);

  return (
    <Stack gap="sm">
      <Text size="sm" fw={500}>
        {t('batch.chosen', { count: props.files.length, size: formatBytes(totalBytes) })} ·{' '}
        {props.perFile ? t('batch.perFileSettings') : t('batch.sameSettings')}
      </Text>
      {!started && (
        <Alert color={plan.cut ? 'yellow' : 'blue'} role="status">
          <Stack gap={6}>
            <Text size="sm">{leftText}</Text>
            {cutText && <Text size="sm">{cutText}</Text>}
          </Stack>
        </Alert>
      )}
      <ErrorAlert
        message={invalid && !started ? null : run.error ? errorMessage(run.error) : null}
      />
      {run.phase === 'uploading' && (
        <div aria-live="polite">
          <Text size="sm" mb={4}>
            {t('tool.uploading', { percent: Math.round(run.upload * 100) })}
          </Text>
          <Progress value={run.upload * 100} />
        </div>
      )}
      {counts && (
        <Text size="sm" role="status" aria-live="polite">
          {t('batch.summary', { done: counts.done, failed: counts.failed, total: counts.total })}
        </Text>
      )}
      <Group gap="sm">
        {!started && plan.runnable > 0 && (
          <Button
            size="md"
            onClick={() => {
              const count = plan.runnable;
              whenSignedIn((account) => void startAs(account, count));
            }}
            loading={planning}
            disabled={Boolean(invalid)}
            data-testid="batch-start"
          >
            {plan.cut ? t('batch.runPart', { count: plan.runnable }) : props.submitLabel}
          </Button>
        )}
        {!started && plan.cut && (
          <Button size="md" variant="light" component={Link} to="/plans">
            {t('batch.upgrade')}
          </Button>
        )}
        {run.busy && (
          <Button
            variant="default"
            size="md"
            leftSection={<IconPlayerStop size={18} />}
            onClick={() => void run.cancel()}
          >
            {t('common.cancel')}
          </Button>
        )}
        {counts && counts.done > 0 && (
          <Button
            size="md"
            color="green"
            leftSection={<IconFileZip size={18} />}
            onClick={() => void saveDownload(zip!)}
          >
            {t('batch.downloadAll')}
          </Button>
        )}
        {!run.busy && (
          <Button
            size="md"
            variant="subtle"
            onClick={() => {
              run.reset();
              props.onClear();
            }}
          >
            {t('batch.clear')}
          </Button>
        )}
      </Group>
      <Stack gap="xs" aria-label={t('batch.listLabel')} role="list">
        {props.files.map((file, index) => {
          const state = run.batch?.files.find((f) => f.index === index);
          return (
            <div role="listitem" key={`${index}-${file.name}-${file.size}`}>
              <BatchFileRow
                file={file}
                status={statusOf(index)}
                state={state}
                onRemove={started ? undefined : () => props.onRemove(index)}
                onDownload={
                  state?.status === 'done'
                    ? () =>
                        void saveDownload(
                          `/api/batches/${run.batch!.id}/files/${index}`,
                          state.filename ?? undefined,
                        )
                    : undefined
                }
              />
            </div>
          );
        })}
      </Stack>
    </Stack>
  );
}
