import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MediaFormatInfo } from '@refract/contracts';
import { useFormats } from '../../lib/queries';

/**
 * The audio or video targets this server can write, from `GET /api/formats`; the ones its
 * ffmpeg lacks an encoder for are listed, disabled, marked unavailable.
 */
export function MediaFormatSelect(props: {
  kinds: readonly ('audio' | 'video')[];
  value: string;
  onChange(format: string): void;
}) {
  const { t } = useTranslation();
  const formats = useFormats();
  const media = formats.data?.media ?? [];
  const option = (f: MediaFormatInfo) => ({
    value: f.format,
    label: f.available
      ? f.format.toUpperCase()
      : `${f.format.toUpperCase()} — ${t('convert.unavailable')}`,
    disabled: !f.available,
  });
  // With both kinds (a video page), audio targets form their own group: "sound track only".
  const data = props.kinds.map((kind) => ({
    group: t(`media.group.${kind}`),
    items: media.filter((f) => f.kind === kind).map(option),
  }));
  return (
    <Select
      label={t('convert.format')}
      data={props.kinds.length > 1 ? data : (data[0]?.items ?? [])}
      value={props.value}
      onChange={(value) => value && props.onChange(value)}
      allowDeselect={false}
      disabled={formats.isPending}
      maxDropdownHeight={280}
    />
  );
}
