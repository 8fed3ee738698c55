import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Extensions Compress keeps in their own format (the server's compress-encode.ts). */
const KEPT = /\.(jpe?g|jfif|png|webp|avif|gif|tiff?|heic|heif)$/i;

/**
 * Said before running: an SVG is refused (it has no pixels to compress), and a format with no
 * lossy form (BMP, PSD, ICO, ...) comes back as JPEG, or PNG when it has transparency.
 */
export function FormatNote(props: { file: File | null; keepFormat: boolean }) {
  const { t } = useTranslation();
  const name = props.file?.name;
  if (!name) return null;
  if (/\.svgz?$/i.test(name) || props.file?.type === 'image/svg+xml')
    return (
      <Alert color="orange" variant="light">
        {t('compress.svgNote')}
      </Alert>
    );
  if (!props.keepFormat || KEPT.test(name)) return null;
  const extension = name.split('.').pop()?.toUpperCase() ?? '';
  return (
    <Alert color="blue" variant="light">
      {t('compress.noLossyForm', { format: extension })}
    </Alert>
  );
}
