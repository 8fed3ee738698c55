import { SimpleGrid, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WATERMARK_ANCHORS, type WatermarkPosition } from '@refract/contracts';

/**
 * Nine buttons laid out as the image is (top-left first): the chosen one is pressed. The grid
 * stays left-to-right on an Arabic page, because the image is not mirrored either.
 */
export function AnchorGrid(props: {
  value: WatermarkPosition;
  onChange(anchor: WatermarkPosition): void;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid
      cols={3}
      spacing={4}
      verticalSpacing={4}
      dir="ltr"
      w={96}
      role="group"
      aria-label={t('watermark.anchors')}
    >
      {WATERMARK_ANCHORS.map((anchor) => {
        const pressed = props.value === anchor;
        return (
          <UnstyledButton
            key={anchor}
            type="button"
            aria-label={t(`watermark.anchor.${anchor}`)}
            aria-pressed={pressed}
            onClick={() => props.onChange(anchor)}
            h={28}
            style={{
              borderRadius: 4,
              border: '1px solid var(--mantine-color-default-border)',
              background: pressed ? 'var(--mantine-primary-color-filled)' : undefined,
            }}
          />
        );
      })}
    </SimpleGrid>
  );
}
