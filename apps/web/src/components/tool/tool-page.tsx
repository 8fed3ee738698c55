import { Progress, Text } from '@mantine/core';
import { Fragment, useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BATCH_PER_FILE_FIELD, type Service, type ToolEntry } from '@refract/contracts';
import { ApiError } from '../../lib/api';
import { useWhenSignedIn } from '../../lib/session/account-gate';
import { useErrorMessage } from '../../lib/use-error-message';
import { BatchPanel } from './batch/batch-panel';
import { BatchStepper } from './batch/batch-stepper';
import type { PerFile } from './batch/use-per-file';
import { ResultAlert } from './result-alert';
import { FileDrop } from './file-drop';
import { useObjectUrl } from './use-object-url';
import { ErrorAlert } from '../error-alert';
import { ToolFrame } from './tool-frame';
import { ToolSubmit } from './tool-submit';
import { useToolRun, type ToolResult } from './use-tool-run';

/**
 * What the picker offers: any image, plus extensions browsers give no image type. They go
 * under a MIME key, because a bare extension in react-dropzone's list is skipped with a warning.
 */
export const IMAGE_ACCEPT = {
  'image/*': [
    '.bmp',
    '.ico',
    '.cur',
    '.psd',
    '.dds',
    '.pcx',
    '.tga',
    '.svg',
    '.heic',
    '.heif',
    '.ppm',
    '.pgm',
    '.pbm',
  ],
};

/** Codes that say only "it failed": a tool may word these its own way. */
const GENERAL_FAILURES = new Set<ApiError['code']>([
  'internal_error',
  'network',
  'processing_failed',
]);

interface ToolPageProps {
  tool: ToolEntry;
  /** The service a use is charged to, when the tool has more than one (convert). */
  service?: Service;
  /** The endpoint, e.g. /api/convert. */
  endpoint: string;
  /** Adds the tool's own fields to the form that is sent. */
  fields(form: FormData): void;
  options?: ReactNode;
  previewStyle?: React.CSSProperties;
  /** Told when the chosen file changes (to reset tool state, e.g. the rotation). */
  onFileChange?(file: File | null): void;
  submitLabel: string;
  showSizes?: boolean;
  /**
   * An interactive editor for the chosen image (crop, watermark, ...). It replaces the plain
   * preview; the server renders the download from the fields it sets.
   */
  editor?(image: { file: File; url: string; index: number }): ReactNode;
  /**
   * The editor's setting per file of a batch (see usePerFile): the user steps the editor
   * through the files; `fields(index)` is what file `index` sends in `perFile` beside the
   * shared fields, or null when the shared fields are its own.
   */
  perFile?: {
    files: Pick<PerFile<unknown>, 'hasOwn' | 'applyToAll'>;
    fields(index: number): Record<string, string> | null;
  };
  /** A check before sending (e.g. nothing to blur yet): a message stops the request. */
  validate?(): string | null;
  /** More about the result beside its sizes (e.g. its dimensions before and after). */
  resultDetails?(result: ToolResult): ReactNode;
  /** A look at the result beside the chosen image, under the download (e.g. before and after). */
  resultPreview?(result: ToolResult, before: { file: File; url: string }): ReactNode;
  /** The tool's own words for a failure that has no more precise message (spec section 8). */
  failedMessage?: string;
}

/**
 * The frame of every file tool: pick or drop a file, preview it, set options, send it with
 * upload progress, then download the server's result, with sizes before and after.
 */
export function ToolPage(props: ToolPageProps) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [files, setFiles] = useState<File[]>([]);
  const [localError, setLocalError] = useState<string | null>(null);
  const run = useToolRun(props.endpoint);
  const whenSignedIn = useWhenSignedIn();
  /** The file in the preview or editor: the first, or the one a batch is stepped to. */
  const [shown, setShown] = useState(0);
  const file = files[0] ?? null;
  const batch = files.length > 1;

  const previewUrl = useObjectUrl(files[shown] ?? null);
  const { onFileChange } = props;
  const { reset } = run;

  // One file keeps the single-file flow (and its editor); several make a batch.
  const choose = useCallback(
    (next: File[]) => {
      setFiles(next);
      setShown(0);
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
    setLocalError(null);
    if (!file) return setLocalError(t('tool.uploadFirst'));
    const invalid = props.validate?.() ?? null;
    if (invalid) return setLocalError(invalid);
    const form = new FormData();
    props.fields(form);
    // Text fields first, so the server can refuse bad options before reading the file.
    form.append('image', file);
    whenSignedIn(() => void run.run(form));
  }

  const failure = (err: unknown) =>
    props.failedMessage && err instanceof ApiError && GENERAL_FAILURES.has(err.code)
      ? props.failedMessage
      : errorMessage(err);
  const error = localError ?? (run.error ? failure(run.error) : null);
  /** Shared fields, then the own settings of the files sent (the first `count`) as perFile. */
  function batchFields(form: FormData, count: number) {
    props.fields(form);
    const entries = [];
    for (let index = 1; index < count; index += 1) {
      const own = props.perFile?.fields(index);
      if (own) entries.push([index, own]);
    }
    if (entries.length === 0) return;
    form.append(BATCH_PER_FILE_FIELD, JSON.stringify(Object.fromEntries(entries)));
  }

  const original = Number(run.result?.headers('x-original-size') ?? file?.size ?? 0);

  return (
    <ToolFrame toolId={props.tool.id} onSubmit={submit}>
      <FileDrop
        file={file}
        count={files.length}
        previewUrl={props.editor ? null : previewUrl}
        previewStyle={props.previewStyle}
        accept={IMAGE_ACCEPT}
        maxBytes={props.tool.maxUploadBytes}
        disabled={run.busy}
        onFiles={choose}
        onReject={setLocalError}
      />
      {batch && props.editor && props.perFile && (
        <BatchStepper
          index={shown}
          count={files.length}
          name={files[shown]!.name}
          own={props.perFile.files.hasOwn(shown)}
          onIndex={setShown}
          onApplyToAll={() => props.perFile!.files.applyToAll(shown)}
        />
      )}
      {props.editor && files[shown] && previewUrl && (
        // Keyed by the file's address: another file's editor starts afresh, once its image is in.
        <Fragment key={previewUrl}>
          {props.editor({ file: files[shown], url: previewUrl, index: shown })}
        </Fragment>
      )}
      {props.options}
      {batch && (
        <BatchPanel
          tool={props.tool}
          endpoint={props.endpoint}
          files={files}
          fields={batchFields}
          perFile={Boolean(props.perFile)}
          submitLabel={props.submitLabel}
          validate={props.validate}
          onRemove={(index) => choose(files.filter((_, i) => i !== index))}
          onClear={() => choose([])}
        />
      )}
      {batch && <ErrorAlert message={localError} />}
      {!batch && (
        <>
          <ErrorAlert message={error} />
          {run.busy && (
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
          )}
          <ToolSubmit
            service={props.service ?? props.tool.services[0]!}
            label={props.submitLabel}
            busy={run.busy}
            disabled={!file}
            result={run.result}
          />
          {run.result && (
            <ResultAlert
              result={run.result}
              before={props.showSizes === false ? undefined : original}
            >
              {props.resultDetails?.(run.result)}
            </ResultAlert>
          )}
        </>
      )}
      {run.result &&
        file &&
        previewUrl &&
        props.resultPreview?.(run.result, { file, url: previewUrl })}
    </ToolFrame>
  );
}
