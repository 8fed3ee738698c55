import { Box, Group, Slider, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Grey and white squares: transparent pixels show as the usual checkerboard. */
const CHECKERBOARD = {
  backgroundColor: '#ffffff',
  backgroundImage: 'repeating-conic-gradient(#d0d4d9 0% 25%, transparent 0% 50%)',
  backgroundSize: '20px 20px',
};

/**
 * The chosen image and the result in one frame, the result over a checkerboard: the slider moves
 * the line between them. Left is before and right is after in every language (an image is never
 * mirrored), so the frame and its slider are laid out left to right in Arabic too.
 */
export function BeforeAfter({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation();
  const [split, setSplit] = useState(50);
  return (
    <Box dir="ltr" data-testid="before-after">
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={500}>
          {t('removeBackground.before')}
        </Text>
        <Text size="sm" fw={500}>
          {t('removeBackground.after')}
        </Text>
      </Group>
      <Box pos="relative" style={{ ...CHECKERBOARD, lineHeight: 0, borderRadius: 4 }}>
        <img
          src={after}
          alt={t('removeBackground.resultAlt')}
          style={{ width: '100%', height: 'auto', display: 'block' }}
        />
        <img
          src={before}
          alt=""
          aria-hidden
          style={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            clipPath: `inset(0 ${100 - split}% 0 0)`,
          }}
        />
        <Box
          aria-hidden
          pos="absolute"
          top={0}
          bottom={0}
          style={{ left: `${split}%`, width: 2, background: '#1c7ed6' }}
        />
      </Box>
      <Slider
        mt="xs"
        value={split}
        onChange={setSplit}
        min={0}
        max={100}
        label={null}
        thumbLabel={t('removeBackground.compare')}
      />
    </Box>
  );
}
