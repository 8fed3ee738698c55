import { Fragment, useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BATCH_PER_FILE_FIELD, type Service, type ToolEntry } from '@refract/contracts';
import { ApiError } from '../../lib/api';
import { useWhenSignedIn } from '../../lib/session/account-gate';
import { saveUrl } from '../../lib/save-file';
import { useErrorMessage } from '../../lib/use-error-message';
import { ErrorAlert } from '../error-alert';
import { BatchPanel } from './batch/batch-panel';
import { BatchStepper } from './batch/batch-stepper';
import type { PerFile } from './batch/use-per-file';
import { FileDrop } from './file-drop';
import { RefusedFiles, type RefusedFile } from './refused-files';
import { ResultAlert } from './result-alert';
import { ToolFrame } from './tool-frame';
import { ToolSubmit } from './tool-submit';
import { useObjectUrl } from './use-object-url';
import { useFileLimit } from '../../lib/file-limit';
import type { ToolResult } from './use-tool-run';

export type ToolKind = 'image' | 'audio' | 'video';

const VIDEO_EXTENSIONS = ['.mkv', '.flv', '.avi', '.mov', '.webm', '.mp4'];

/**
 * What the picker offers per kind. Extensions go under a MIME key: react-dropzone skips bare
 * ones with a warning. Images add the extensions browsers give no image type.
 */
export const ACCEPT: Record<ToolKind, Record<string, string[]>> = {
  image: {
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
  },
  // The audio tools take a video's sound track too, as the server does.
  audio: {
    'audio/*': ['.aiff', '.amr', '.opus', '.m4a', '.flac', '.wav', '.ogg', '.mp3'],
    'video/*': VIDEO_EXTENSIONS,
  },
  video: { 'video/*': VIDEO_EXTENSIONS },
};

/**
 * Files in the order people number them (b1, b2, b10), whatever order the system's picker gave
 * (code point order puts b10 before b2): a batch runs, and "the first N" are, in this order.
 */
const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const naturalOrder = (files: File[]) =>
  [...files].sort((a, b) => byName.compare(a.name, b.name));

/** Codes that say only "it failed": a tool may word these its own way. */
const GENERAL_FAILURES = new Set<ApiError['code']>([
  'internal_error',
  'network',
  'processing_failed',
]);

/** What a tool page sets: the props of ToolPage and JobToolPage, one meaning each. */
export interface ToolPageProps {
  tool: ToolEntry;
  /** The service a use is charged to, when the tool has more than one (convert). */
  service?: Service;
  /** The endpoint, e.g. /api/convert. */
  endpoint: string;
  /** Adds the tool's own fields to the form that is sent: one file's, or a batch's (`batch`). */
  fields(form: FormData, batch: boolean): void;
  /** The slot for the tool's options, under the file (and its editor). */
  options?: ReactNode;
  previewStyle?: React.CSSProperties;
  /** Told when the chosen file changes (to reset tool state, e.g. the rotation). */
  onFileChange?(file: File | null): void;
  submitLabel: string;
  /**
   * The submit button says "… and download": the result is saved as soon as it is ready (one
   * click), and a batch's results as one zip. The result card keeps its download link.
   */
  downloadOnDone?: boolean;
  showSizes?: boolean;
  /**
   * An interactive editor for the chosen file (crop, watermark, ...). It replaces the plain
   * preview; the server renders the download from the fields it sets.
   */
  editor?(image: { file: File; url: string; index: number; batch: boolean }): ReactNode;
  /**
   * The editor's setting per file of a batch (see usePerFile): the user steps the editor
   * through the files; `fields(index)` is what file `index` sends in `perFile` beside the
   * shared fields, or null when the shared fields are its own.
   */
  perFile?: {
    files: Pick<PerFile<unknown>, 'hasOwn' | 'applyToAll'>;
    fields(index: number): Record<string, string> | null;
  };
  /** A check before sending one file or a batch (e.g. nothing to blur yet): a message stops it. */
  validate?(batch: boolean): string | null;
  /**
   * A step of the page itself still under way (face detection filling in the areas): the
   * submit button waits for it, and a message about the state before it is cleared.
   */
  preparing?: boolean;
  /** More about the result beside its sizes (e.g. its dimensions before and after). */
  resultDetails?(result: ToolResult): ReactNode;
  /** A look at the result beside the chosen file, under the download (e.g. before and after). */
  resultPreview?(result: ToolResult, before: { file: File; url: string }): ReactNode;
  /** The tool's own words for a failure that has no more precise message. */
  failedMessage?: string;
}

/** One run of the tool on one file, however the server runs it (in the request, or a job). */
export interface ShellRun {
  busy: boolean;
  result: ToolResult | null;
  error: unknown;
  run(form: FormData): Promise<void>;
  reset(): void;
  /** Progress and status while it runs (and after, e.g. "cancelled"). */
  status: ReactNode;
  /** Beside the submit button (e.g. Cancel). */
  actions?: ReactNode;
}

/**
 * The frame of every file tool (image, audio, video): pick or drop files (each refused one
 * named with its reason), preview or play the file, the tool's editor and options, then one
 * file sent with progress and its result to download, or several as a batch.
 */
export function ToolShell(props: ToolPageProps & { kind: ToolKind; run: ShellRun }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [files, setFiles] = useState<File[]>([]);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const [localError, setLocalError] = useState<string | null>(null);
  const whenSignedIn = useWhenSignedIn();
  const { kind, run } = props;
  /** The file in the preview or editor: the first, or the one a batch is stepped to. */
  const [shown, setShown] = useState(0);
  const file = files[0] ?? null;
  const batch = files.length > 1;
  // A batch of audio or video plays nothing; an image batch may step its editor.
  const maxBytes = useFileLimit(props.tool);
  const previewUrl = useObjectUrl(kind === 'image' || !batch ? (files[shown] ?? null) : null);
  const { onFileChange, downloadOnDone } = props;
  const { reset, result } = run;

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
  // A new pick replaces the files and the list of refused ones (it may refuse only some).
  const pick = useCallback(
    (accepted: File[], rejected: RefusedFile[]) => {
      setRefused(rejected);
      if (accepted.length > 0) choose(naturalOrder(accepted));
    },
    [choose],
  );

  // What was said about the page before a step of its own began no longer holds.
  const { preparing } = props;
  useEffect(() => {
    if (preparing) setLocalError(null);
  }, [preparing]);

  // The button said "and download": the first click saves the file.
  useEffect(() => {
    if (downloadOnDone && result) saveUrl(result.url, result.filename);
  }, [downloadOnDone, result]);

  function submit(event: FormEvent) {
    event.preventDefault();
    // A batch starts from its own panel, which shows first what it will cost.
    if (batch) return;
    setLocalError(null);
    if (!file) {
      return setLocalError(t(kind === 'image' ? 'tool.uploadFirst' : `media.uploadFirst.${kind}`));
    }
    const invalid = props.validate?.(false) ?? null;
    if (invalid) return setLocalError(invalid);
    const form = new FormData();
    props.fields(form, false);
    // Text fields first, so the server can refuse bad options before reading the file.
    form.append(kind, file);
    whenSignedIn(() => void run.run(form));
  }

  const failure = (err: unknown) =>
    props.failedMessage && err instanceof ApiError && GENERAL_FAILURES.has(err.code)
      ? props.failedMessage
      : errorMessage(err);
  const error = localError ?? (run.error ? failure(run.error) : null);
  /** Shared fields, then the own settings of the files sent (the first `count`) as perFile. */
  function batchFields(form: FormData, count: number) {
    props.fields(form, true);
    const entries = [];
    for (let index = 1; index < count; index += 1) {
      const own = props.perFile?.fields(index);
      if (own) entries.push([index, own]);
    }
    if (entries.length === 0) return;
    form.append(BATCH_PER_FILE_FIELD, JSON.stringify(Object.fromEntries(entries)));
  }

  const original = Number(result?.headers('x-original-size') ?? file?.size ?? 0);
  const Player = kind === 'image' ? null : kind;

  return (
    <ToolFrame toolId={props.tool.id} onSubmit={submit}>
      <FileDrop
        kind={kind}
        file={file}
        count={files.length}
        previewUrl={kind !== 'image' || props.editor ? null : previewUrl}
        previewStyle={props.previewStyle}
        accept={ACCEPT[kind]}
        maxBytes={maxBytes}
        disabled={run.busy}
        onPick={pick}
      />
      <RefusedFiles files={refused} onDismiss={() => setRefused([])} />
      {Player && previewUrl && (
        <Player
          controls
          src={previewUrl}
          aria-label={t(`media.player.${Player}`)}
          style={{ width: '100%', maxHeight: 320, borderRadius: 8, background: '#000' }}
        />
      )}
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
          {props.editor({ file: files[shown], url: previewUrl, index: shown, batch })}
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
          downloadOnDone={downloadOnDone}
          validate={() => props.validate?.(true) ?? null}
          onRemove={(index) => choose(files.filter((_, i) => i !== index))}
          onClear={() => choose([])}
        />
      )}
      {batch && <ErrorAlert message={localError} />}
      {!batch && (
        <>
          <ErrorAlert message={error} />
          {run.status}
          <ToolSubmit
            service={props.service ?? props.tool.services[0]!}
            label={props.submitLabel}
            busy={run.busy}
            disabled={!file || props.preparing}
            result={result}
          >
            {run.actions}
          </ToolSubmit>
          {result && (
            <ResultAlert result={result} before={props.showSizes === false ? undefined : original}>
              {props.resultDetails?.(result)}
            </ResultAlert>
          )}
        </>
      )}
      {result && file && previewUrl && props.resultPreview?.(result, { file, url: previewUrl })}
    </ToolFrame>
  );
}
