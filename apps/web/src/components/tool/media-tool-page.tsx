import { Button, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolEntry } from '@refract/contracts';
import { useWhenSignedIn } from '../../lib/session/account-gate';
import { useErrorMessage } from '../../lib/use-error-message';
import { ErrorAlert } from '../error-alert';
import { BatchPanel } from './batch/batch-panel';
import { ResultAlert } from './result-alert';
import { FileDrop } from './file-drop';
import { useObjectUrl } from './use-object-url';
import { ToolFrame } from './tool-frame';
import { ToolSubmit } from './tool-submit';
import { useJobRun } from './use-job-run';

/** Only files of the tool's kind can be picked (spec section 5); the server probes them again. */
/** Extensions go under a MIME key: react-dropzone skips bare ones with a warning. */
const ACCEPT = {
  audio: { 'audio/*': ['.aiff', '.amr', '.opus', '.m4a', '.flac', '.wav', '.ogg', '.mp3'] },
  video: { 'video/*': ['.mkv', '.flv', '.avi', '.mov', '.webm', '.mp4'] },
};

interface MediaToolPageProps {
  tool: ToolEntry;
  kind: 'audio' | 'video';
  endpoint: string;
  fields(form: FormData): void;
  options: ReactNode;
  submitLabel: string;
  /** Told when the chosen file changes (null when there is none). */
  onFileChange?(file: File | null): void;
}

/**
 * The frame of every audio and video tool: pick a file, play it, set options, then two
 * progress bars (upload, then the server's processing), cancel at any time, and download
 * with sizes before and after.
 */
export function MediaToolPage(props: MediaToolPageProps) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [files, setFiles] = useState<File[]>([]);
  const [localError, setLocalError] = useState<string | null>(null);
  const run = useJobRun(props.endpoint);
  const whenSignedIn = useWhenSignedIn();
  const file = files[0] ?? null;
  const batch = files.length > 1;

  const previewUrl = useObjectUrl(batch ? null : file);
  const { reset } = run;
  const { onFileChange } = props;

  // One file keeps the single-file flow (and its player); several make a batch.
  const choose = useCallback(
    (next: File[]) => {
      setFiles(next);
      setLocalError(null);
      reset();
      onFileChange?.(next[0] ?? null);
    },
    [onFileChange, reset],
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    // A batch starts from its own panel, which shows first what it will cost.
    if (batch) return;
    if (!file) return setLocalError(t(`media.uploadFirst.${props.kind}`));
    const form = new FormData();
    props.fields(form);
    form.append(props.kind, file);
    whenSignedIn(() => void run.run(form));
  }

  const error = localError ?? (run.error ? errorMessage(run.error) : null);
  const Player = props.kind;
  const uploadPercent = Math.round(run.upload * 100);
  const uploadLabel = t('tool.uploading', { percent: uploadPercent });
  const processingLabel =
    run.job?.status === 'queued'
      ? t('media.queued')
      : t('media.processing', { percent: run.progress });

  return (
    <ToolFrame toolId={props.tool.id} onSubmit={submit}>
      <FileDrop
        kind={props.kind}
        file={file}
        previewUrl={null}
        accept={ACCEPT[props.kind]}
        maxBytes={props.tool.maxUploadBytes}
        count={files.length}
        disabled={run.busy}
        onFiles={choose}
        onReject={setLocalError}
      />
      {previewUrl && (
        <Player
          controls
          src={previewUrl}
          aria-label={t(`media.player.${props.kind}`)}
          style={{ width: '100%', maxHeight: 320, borderRadius: 8, background: '#000' }}
        />
      )}
      {props.options}
      {batch && (
        <BatchPanel
          tool={props.tool}
          endpoint={props.endpoint}
          files={files}
          fields={props.fields}
          submitLabel={props.submitLabel}
          onRemove={(index) => choose(files.filter((_, i) => i !== index))}
          onClear={() => choose([])}
        />
      )}
      {batch && <ErrorAlert message={localError} />}
      {!batch && (
        <>
          <ErrorAlert message={error} />
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
          <ToolSubmit
            service={props.tool.services[0]!}
            label={props.submitLabel}
            busy={run.busy}
            disabled={!file}
            result={run.result}
          >
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
          </ToolSubmit>
          {run.phase === 'cancelled' && (
            <Text size="sm" role="status">
              {t(run.cancelledCharged ? 'media.cancelledCharged' : 'media.cancelled')}
            </Text>
          )}
          {run.result && file && <ResultAlert result={run.result} before={file.size} />}
        </>
      )}
    </ToolFrame>
  );
}
