import { Box, Slider, Text } from '@mantine/core';
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';

const tool = toolById('crop');
/** Spec section 9: a fixed 4:3 frame, zoom 1 to 3 in steps of 0.1, a 400 px high crop area. */
const ASPECT = 4 / 3;
const ZOOM = { min: 1, max: 3, step: 0.1 };
const AREA_HEIGHT = 400;

/** The frame is chosen in the browser; the server cuts the same rectangle from the original. */
export function CropPage() {
  const { t } = useTranslation();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);

  function reset() {
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setArea(null);
  }

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/crop"
      submitLabel={t('crop.submit')}
      failedMessage={t('crop.failed')}
      showSizes={false}
      onFileChange={reset}
      fields={(form) => {
        // croppedAreaPixels: already in the original image's pixels.
        const { x, y, width, height } = area ?? { x: 0, y: 0, width: 0, height: 0 };
        form.append('x', String(Math.round(x)));
        form.append('y', String(Math.round(y)));
        form.append('width', String(Math.round(width)));
        form.append('height', String(Math.round(height)));
      }}
      editor={({ url }) => (
        <>
          <Box
            pos="relative"
            h={AREA_HEIGHT}
            bg="dark.8"
            style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
            aria-label={t('crop.areaLabel')}
            role="group"
          >
            <Cropper
              image={url}
              crop={crop}
              zoom={zoom}
              minZoom={ZOOM.min}
              maxZoom={ZOOM.max}
              aspect={ASPECT}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
            />
          </Box>
          <Text size="sm" c="dimmed">
            {t('crop.hint')}
          </Text>
          <div>
            <Text size="sm" fw={500} aria-hidden>
              {t('crop.zoom', { zoom: zoom.toFixed(1) })}
            </Text>
            <Slider
              min={ZOOM.min}
              max={ZOOM.max}
              step={ZOOM.step}
              value={zoom}
              onChange={setZoom}
              label={(value) => `${value.toFixed(1)}×`}
              thumbLabel={t('crop.zoom', { zoom: zoom.toFixed(1) })}
            />
          </div>
        </>
      )}
    />
  );
}
