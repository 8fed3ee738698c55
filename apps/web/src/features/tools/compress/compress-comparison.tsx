import { Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../../../lib/format';

/**
 * The bytes saved, and the original beside the compressed result. The right-hand picture is
 * the very file the download gives (not an estimate), so it can be judged before keeping it.
 */
export function CompressComparison(props: {
  originalUrl: string;
  resultUrl: string;
  before: number;
  after: number;
  /** The quality the server used (a size target searches for it), and any size it shrank to. */
  quality?: number;
  dimensions?: string;
}) {
  const { t } = useTranslation();
  const percent = Math.max(0, Math.round((1 - props.after / props.before) * 100));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t('compress.saved', { percent: formatNumber(percent) })}
      </Text>
      {props.quality !== undefined && (
        <Text size="sm">
          {t('compress.reached', {
            quality: formatNumber(props.quality),
            size: formatBytes(props.after),
          })}
          {props.dimensions &&
            ` ${t('compress.shrunkTo', { dimensions: props.dimensions.replace('x', ' × ') })}`}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        {[
          [props.originalUrl, t('compress.original')],
          [props.resultUrl, t('compress.compressedPreview')],
        ].map(([url, label]) => (
          <figure key={label} style={{ margin: 0 }}>
            <Image src={url} alt={label} mah={240} fit="contain" radius="sm" />
            <Text component="figcaption" size="xs" c="dimmed" ta="center">
              {label}
            </Text>
          </figure>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
