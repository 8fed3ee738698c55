import { Group, NumberInput, Select, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VIDEO_FRAME_RATES, VIDEO_RESOLUTIONS } from '@refract/contracts';
import { formatBytes } from '../../lib/format';
import { MoreOptions } from './more-options';
import { appendTrim, TrimFields, type TrimValues } from './trim-fields';
import { LabelledChoice } from './labelled-choice';

export interface VideoOptionValues extends TrimValues {
  resolution: string;
  upscale: boolean;
  fps: string;
  codec: string;
  audio: 'reencode' | 'copy' | 'remove';
  rotate: string;
  /** MB; empty for none. */
  targetSize: number | '';
}

export const DEFAULT_VIDEO_OPTIONS: VideoOptionValues = {
  resolution: 'keep',
  upscale: false,
  fps: 'keep',
  codec: 'default',
  audio: 'reencode',
  rotate: '0',
  targetSize: '',
  start: '',
  end: '',
};

/** The codecs each container takes (the server's media-formats.ts; it refuses the others). */
const CODECS: Record<string, string[]> = {
  mp4: ['h264', 'h265', 'vp9', 'av1'],
  mkv: ['h264', 'h265', 'vp9', 'av1'],
  webm: ['vp9', 'av1'],
  mov: ['h264', 'h265'],
};
const CODEC_NAMES: Record<string, string> = {
  h264: 'H.264',
  h265: 'H.265 (HEVC)',
  vp9: 'VP9',
  av1: 'AV1',
};

export function appendVideoOptions(form: FormData, value: VideoOptionValues, format: string) {
  const gif = format === 'gif';
  if (value.resolution !== 'keep') form.append('resolution', value.resolution);
  if (value.upscale) form.append('upscale', 'true');
  if (value.fps !== 'keep') form.append('fps', value.fps);
  if (!gif && value.codec !== 'default' && CODECS[format]?.includes(value.codec))
    form.append('codec', value.codec);
  if (!gif && value.audio !== 'reencode') form.append('audio', value.audio);
  if (value.rotate !== '0') form.append('rotate', value.rotate);
  if (!gif && value.targetSize !== '') form.append('targetSize', String(value.targetSize));
  appendTrim(form, value);
}

/** Resolution, frame rate, codec, sound, rotation, trim and a target size. */
export function VideoOptions(props: {
  value: VideoOptionValues;
  onChange(value: VideoOptionValues): void;
  format: string;
  duration: number | null;
}) {
  const { t } = useTranslation();
  const { value, format } = props;
  const set = (patch: Partial<VideoOptionValues>) => props.onChange({ ...value, ...patch });
  const gif = format === 'gif';
  const codecs = CODECS[format];
  return (
    <Stack gap="sm">
      <MoreOptions>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <Select
              label={t('mediaOptions.resolution')}
              data={VIDEO_RESOLUTIONS.map((r) => ({
                value: r,
                label: r === 'keep' ? t('mediaOptions.keep') : `${r}p`,
              }))}
              value={value.resolution}
              onChange={(resolution) => resolution && set({ resolution })}
              allowDeselect={false}
            />
            <Select
              label={t('mediaOptions.fps')}
              data={[
                { value: 'keep', label: t('mediaOptions.keep') },
                ...VIDEO_FRAME_RATES.map((fps) => ({ value: String(fps), label: `${fps} fps` })),
              ]}
              value={value.fps}
              onChange={(fps) => fps && set({ fps })}
              allowDeselect={false}
            />
          </Group>
          {value.resolution !== 'keep' && (
            <Switch
              label={t('mediaOptions.upscale')}
              checked={value.upscale}
              onChange={(event) => set({ upscale: event.currentTarget.checked })}
            />
          )}
          {!gif && codecs && (
            <Select
              label={t('mediaOptions.codec')}
              data={[
                { value: 'default', label: t('mediaOptions.codecDefault') },
                ...codecs.map((codec) => ({ value: codec, label: CODEC_NAMES[codec]! })),
              ]}
              value={codecs.includes(value.codec) ? value.codec : 'default'}
              onChange={(codec) => codec && set({ codec })}
              allowDeselect={false}
            />
          )}
          {!gif && (
            <LabelledChoice
              label={t('mediaOptions.sound')}
              value={value.audio}
              onChange={(audio) => set({ audio })}
              data={[
                { value: 'reencode', label: t('mediaOptions.reencode') },
                { value: 'copy', label: t('mediaOptions.copy') },
                { value: 'remove', label: t('mediaOptions.remove') },
              ]}
            />
          )}
          <LabelledChoice
            label={t('mediaOptions.rotate')}
            value={value.rotate}
            onChange={(rotate) => set({ rotate })}
            data={['0', '90', '180', '270'].map((r) => ({ value: r, label: `${r}°` }))}
          />
          <TrimFields value={value} onChange={set} duration={props.duration} />
          {!gif && (
            <NumberInput
              label={t('mediaOptions.targetSize')}
              description={t('mediaOptions.targetSizeHint')}
              min={0.01}
              max={4096}
              step={1}
              decimalScale={2}
              value={value.targetSize}
              onChange={(size) => set({ targetSize: size === '' ? '' : Number(size) })}
            />
          )}
        </Stack>
      </MoreOptions>
      {!gif && value.targetSize !== '' && (
        <Text size="sm" role="status">
          {t('mediaOptions.expectedSize', { size: formatBytes(value.targetSize * 1e6) })}
        </Text>
      )}
    </Stack>
  );
}
