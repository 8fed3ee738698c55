import { Group, NumberInput, Select, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AUDIO_SAMPLE_RATES, LOSSLESS_AUDIO_FORMATS, OPUS_SAMPLE_RATES } from '@refract/contracts';
import { formatBytes } from '../../lib/format';
import { MoreOptions } from './more-options';
import { LabelledChoice } from './labelled-choice';
import { appendTrim, TrimFields, trimmedSeconds, type TrimValues } from './trim-fields';

export interface AudioOptionValues extends TrimValues {
  /** auto: the server follows the source (or Compress's percentage). */
  mode: 'auto' | 'cbr' | 'vbr';
  bitrate: string;
  vbr: string;
  sampleRate: string;
  channels: 'keep' | 'mono' | 'stereo';
  normalize: boolean;
  fadeIn: number | '';
  fadeOut: number | '';
}

export const DEFAULT_AUDIO_OPTIONS: AudioOptionValues = {
  mode: 'auto',
  bitrate: '128',
  vbr: '2',
  sampleRate: 'keep',
  channels: 'keep',
  normalize: false,
  fadeIn: '',
  fadeOut: '',
  start: '',
  end: '',
};

const BITRATES = ['32', '48', '64', '96', '128', '160', '192', '256', '320'];
/** LAME's typical bitrates for V0–V9, for the expected size only. */
const VBR_TYPICAL_KBPS = [245, 225, 190, 175, 165, 130, 115, 100, 85, 65];
/** The server's defaults (audio-plan.ts), which a lower source lowers. */
const DEFAULT_KBPS: Record<string, number> = { mp3: 192, aac: 192, m4a: 192, ogg: 160, opus: 128 };

const isLossless = (format: string) =>
  (LOSSLESS_AUDIO_FORMATS as readonly string[]).includes(format);

/** The form fields for these options (nothing for what is left at its default). */
export function appendAudioOptions(form: FormData, value: AudioOptionValues, format: string) {
  if (!isLossless(format) && format !== 'amr') {
    if (value.mode === 'cbr') form.append('bitrate', value.bitrate);
    if (value.mode === 'vbr') form.append('vbr', value.vbr);
  }
  if (value.sampleRate !== 'keep' && format !== 'amr') form.append('sampleRate', value.sampleRate);
  if (value.channels !== 'keep' && format !== 'amr') form.append('channels', value.channels);
  if (value.normalize) form.append('normalize', 'true');
  if (value.fadeIn !== '' && value.fadeIn > 0) form.append('fadeIn', String(value.fadeIn));
  if (value.fadeOut !== '' && value.fadeOut > 0) form.append('fadeOut', String(value.fadeOut));
  appendTrim(form, value);
}

/** About how large the result will be, before running; null when it cannot be told. */
export function expectedAudioBytes(input: {
  value: AudioOptionValues;
  format: string;
  file: File | null;
  duration: number | null;
  compressPercentage?: number;
}): number | null {
  const { value, format, file, duration } = input;
  const seconds = trimmedSeconds(value, duration);
  if (!file || seconds === null || !duration) return null;
  const channels = value.channels === 'mono' ? 1 : 2;
  const rate = value.sampleRate === 'keep' ? 44_100 : Number(value.sampleRate);
  if (format === 'wav' || format === 'aiff' || format === 'pcm')
    return seconds * rate * channels * 2;
  if (isLossless(format) || format === 'amr') return null;
  const sourceKbps = (file.size * 8) / duration / 1000;
  let kbps: number;
  if (value.mode === 'cbr') kbps = Number(value.bitrate);
  else if (value.mode === 'vbr') kbps = VBR_TYPICAL_KBPS[Number(value.vbr)]!;
  else if (input.compressPercentage !== undefined)
    kbps = Math.min(
      320,
      Math.max(Math.min(48, sourceKbps), (sourceKbps * input.compressPercentage) / 100),
    );
  else kbps = Math.min(DEFAULT_KBPS[format] ?? 192, sourceKbps);
  return (seconds * kbps * 1000) / 8;
}

/** Bitrate (constant or variable), sample rate, channels, trim, loudness and fades. */
export function AudioOptions(props: {
  value: AudioOptionValues;
  onChange(value: AudioOptionValues): void;
  format: string;
  duration: number | null;
  expectedBytes: number | null;
  /** Compress: "auto" means its percentage. */
  autoLabel?: string;
}) {
  const { t } = useTranslation();
  const { value, format } = props;
  const set = (patch: Partial<AudioOptionValues>) => props.onChange({ ...value, ...patch });
  const fixed = format === 'amr';
  const rates = format === 'opus' ? OPUS_SAMPLE_RATES : AUDIO_SAMPLE_RATES;
  return (
    <Stack gap="sm">
      <MoreOptions>
        <Stack gap="sm">
          {!isLossless(format) && !fixed && (
            <>
              <LabelledChoice
                label={t('mediaOptions.bitrateMode')}
                value={value.mode}
                onChange={(mode) => set({ mode })}
                data={[
                  { value: 'auto', label: props.autoLabel ?? t('mediaOptions.auto') },
                  { value: 'cbr', label: t('mediaOptions.cbr') },
                  { value: 'vbr', label: t('mediaOptions.vbr') },
                ]}
              />
              {value.mode === 'cbr' && (
                <Select
                  label={t('mediaOptions.bitrate')}
                  data={BITRATES.map((kbps) => ({ value: kbps, label: `${kbps} kbps` }))}
                  value={value.bitrate}
                  onChange={(bitrate) => bitrate && set({ bitrate })}
                  allowDeselect={false}
                />
              )}
              {value.mode === 'vbr' && (
                <Select
                  label={t('mediaOptions.vbrLevel')}
                  data={VBR_TYPICAL_KBPS.map((_, level) => ({
                    value: String(level),
                    label: `V${level}`,
                  }))}
                  value={value.vbr}
                  onChange={(vbr) => vbr && set({ vbr })}
                  allowDeselect={false}
                />
              )}
            </>
          )}
          {!fixed && (
            <Group grow align="flex-start">
              <Select
                label={t('mediaOptions.sampleRate')}
                data={[
                  { value: 'keep', label: t('mediaOptions.keep') },
                  ...rates.map((rate) => ({ value: String(rate), label: `${rate / 1000} kHz` })),
                ]}
                value={value.sampleRate}
                onChange={(sampleRate) => sampleRate && set({ sampleRate })}
                allowDeselect={false}
              />
              <Select
                label={t('mediaOptions.channels')}
                data={[
                  { value: 'keep', label: t('mediaOptions.keep') },
                  { value: 'mono', label: t('mediaOptions.mono') },
                  { value: 'stereo', label: t('mediaOptions.stereo') },
                ]}
                value={value.channels}
                onChange={(channels) =>
                  channels && set({ channels: channels as AudioOptionValues['channels'] })
                }
                allowDeselect={false}
              />
            </Group>
          )}
          <TrimFields value={value} onChange={set} duration={props.duration} />
          <Group grow align="flex-start">
            <NumberInput
              label={t('mediaOptions.fadeIn')}
              min={0}
              max={60}
              step={0.5}
              value={value.fadeIn}
              onChange={(fadeIn) => set({ fadeIn: fadeIn === '' ? '' : Number(fadeIn) })}
            />
            <NumberInput
              label={t('mediaOptions.fadeOut')}
              min={0}
              max={60}
              step={0.5}
              value={value.fadeOut}
              onChange={(fadeOut) => set({ fadeOut: fadeOut === '' ? '' : Number(fadeOut) })}
            />
          </Group>
          <Switch
            label={t('mediaOptions.normalize')}
            checked={value.normalize}
            onChange={(event) => set({ normalize: event.currentTarget.checked })}
          />
        </Stack>
      </MoreOptions>
      {props.expectedBytes !== null && (
        <Text size="sm" role="status">
          {t('mediaOptions.expectedSize', { size: formatBytes(props.expectedBytes) })}
        </Text>
      )}
    </Stack>
  );
}
