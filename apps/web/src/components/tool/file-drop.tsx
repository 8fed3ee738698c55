import '@mantine/dropzone/styles.layer.css';
import { Group, Image, Stack, Text } from '@mantine/core';
import { Dropzone, type DropzoneProps } from '@mantine/dropzone';
import { IconMovie, IconMusic, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { receiveEarlyFiles } from '../../lib/early-files';
import { formatBytes } from '../../lib/format';
import { UserText } from '../user-text';
import type { RefusedFile } from './refused-files';

/**
 * Drag and drop or click (or Enter/Space) to pick files, drop a folder, or paste images. Files
 * over `maxBytes` or of another kind are left out here, each named with its reason; the server
 * enforces the same limits. Several files make a batch (components/tool/batch).
 */
const KIND_ICON = { image: IconPhoto, audio: IconMusic, video: IconMovie };

export function FileDrop(props: {
  /** What the tool takes; audio and video show their player outside the drop zone. */
  kind?: 'image' | 'audio' | 'video';
  file: File | null;
  previewUrl: string | null;
  previewStyle?: React.CSSProperties;
  accept: DropzoneProps['accept'];
  /** Unknown (audio or video before sign-in): no file is left out for its size here. */
  maxBytes: number | undefined;
  disabled?: boolean;
  /** How many files are chosen (more than one: the list below names them). */
  count?: number;
  /** Every pick: the files taken, and each file left out with its reason. */
  onPick(accepted: File[], refused: RefusedFile[]): void;
}) {
  const { t } = useTranslation();
  const kind = props.kind ?? 'image';
  const KindIcon = KIND_ICON[kind];
  const { onPick, disabled, maxBytes } = props;
  const tooLarge =
    maxBytes === undefined ? '' : t('tool.tooLarge', { limit: formatBytes(maxBytes) });
  const wrongType = t(`tool.wrongKind.${kind}`);

  // Files that did not come through the dropzone get its checks here: pasted images, and
  // files chosen before React took the prerendered page's input over (lib/early-files).
  const takeOutside = useCallback(
    (files: File[], only: string) => {
      const taken: File[] = [];
      const refused: RefusedFile[] = [];
      for (const file of files) {
        const reason =
          file.type && !file.type.startsWith(only)
            ? wrongType
            : maxBytes !== undefined && file.size > maxBytes
              ? tooLarge
              : null;
        if (reason) refused.push({ name: file.name, reason });
        else taken.push(file);
      }
      if (files.length > 0) onPick(taken, refused);
    },
    [maxBytes, onPick, tooLarge, wrongType],
  );

  useEffect(() => {
    if (!disabled) return receiveEarlyFiles((files) => takeOutside(files, `${kind}/`));
  }, [disabled, kind, takeOutside]);

  // Images pasted anywhere on the page are taken as chosen files.
  useEffect(() => {
    if (kind !== 'image' || disabled) return;
    const onPaste = (event: ClipboardEvent) =>
      takeOutside([...(event.clipboardData?.files ?? [])], 'image/');
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [kind, disabled, takeOutside]);

  return (
    <Dropzone
      // One call per pick (react-dropzone's onDrop has both lists), so a pick that is partly
      // refused still names every file it left out.
      onDrop={() => undefined}
      onDropAny={(accepted, rejections) =>
        onPick(
          accepted,
          rejections.map(({ file, errors }) => ({
            name: file.name,
            reason: errors.some((e) => e.code === 'file-too-large') ? tooLarge : wrongType,
          })),
        )
      }
      maxSize={props.maxBytes}
      accept={props.accept}
      multiple
      disabled={props.disabled}
      aria-label={t('tool.dropLabel')}
      // The hidden file input needs its own name too, or screen readers announce a bare input.
      inputProps={{ 'aria-label': t('tool.dropLabel') }}
      radius="lg"
    >
      <Stack align="center" gap="xs" mih={180} justify="center" style={{ pointerEvents: 'none' }}>
        {/* Players and editors show the file below; here it is named. */}
        {(props.count ?? 0) > 1 ? (
          <Group gap="sm" wrap="nowrap">
            <KindIcon size={32} stroke={1.5} aria-hidden />
            <Text size="sm">{t('batch.dropMore', { count: props.count })}</Text>
          </Group>
        ) : props.file && (kind !== 'image' || !props.previewUrl) ? (
          <Group gap="sm" wrap="nowrap">
            <KindIcon size={32} stroke={1.5} aria-hidden />
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <UserText>{props.file.name}</UserText> ·{' '}
              <UserText>{formatBytes(props.file.size)}</UserText>
            </Text>
          </Group>
        ) : props.file && props.previewUrl ? (
          <>
            <Image
              src={props.previewUrl}
              alt={t('tool.preview')}
              fit="contain"
              // A tool may size the preview itself (rotate keeps it square so it can turn).
              style={props.previewStyle ?? { maxHeight: 320, maxWidth: '100%', width: 'auto' }}
            />
            <Text size="sm" c="dimmed">
              <UserText>{props.file.name}</UserText> ·{' '}
              <UserText>{formatBytes(props.file.size)}</UserText>
            </Text>
          </>
        ) : (
          <Group gap="md" wrap="nowrap">
            <Dropzone.Accept>
              <IconUpload size={40} stroke={1.5} />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={40} stroke={1.5} />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <KindIcon size={40} stroke={1.5} />
            </Dropzone.Idle>
            <div>
              <Text fw={600}>{t(kind === 'image' ? 'tool.dropTitle' : `media.drop.${kind}`)}</Text>
              <Text size="sm" c="dimmed">
                {props.maxBytes === undefined
                  ? t(`media.hintByPlan.${kind as 'audio' | 'video'}`)
                  : t(kind === 'image' ? 'tool.dropHint' : `media.hint.${kind}`, {
                      limit: formatBytes(props.maxBytes),
                    })}
              </Text>
              <Text size="sm" c="dimmed">
                {t(kind === 'image' ? 'batch.dropHintImages' : 'batch.dropHintMedia')}
              </Text>
            </div>
          </Group>
        )}
      </Stack>
    </Dropzone>
  );
}
