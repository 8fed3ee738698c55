import { Box, Slider, Text } from '@mantine/core';
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';

const tool = toolById('crop');
/** Spec section 9: a fixed 4:3 frame, zoom 1 to 3 in steps of 0.1, a 400 px high crop area. */
const ASPECT = 4 / 3;
const ZOOM = { min: 1, max: 3, step: 0.1 };
const AREA_HEIGHT = 400;

/** The frame on one image: where and how near it is shown, and what it cuts in source pixels. */
interface Frame {
  crop: { x: number; y: number };
  zoom: number;
  area: Area | null;
}
const CENTRED: Frame = { crop: { x: 0, y: 0 }, zoom: 1, area: null };

/** croppedAreaPixels: already in the original image's pixels. */
function areaFields({ area }: Frame): Record<string, string> {
  const { x, y, width, height } = area ?? { x: 0, y: 0, width: 0, height: 0 };
  return {
    x: String(Math.round(x)),
    y: String(Math.round(y)),
    width: String(Math.round(width)),
    height: String(Math.round(height)),
  };
}

/**
 * The frame is chosen in the browser; the server cuts the same rectangle from the original.
 * In a batch an image that follows the first one's frame is cut where that frame falls on it
 * as shown (its own pixels), or, never shown, at the first image's rectangle.
 */
export function CropPage() {
  const { t } = useTranslation();
  const frames = usePerFile(CENTRED);
  /** Where the first file's frame, as then placed, fell on other files when they were shown. */
  const [seen, setSeen] = useState(new Map<number, { view: string; area: Area }>());
  const view = ({ crop, zoom }: Frame) => JSON.stringify([crop, zoom]);

  function fileFields(index: number) {
    if (frames.hasOwn(index)) return areaFields(frames.get(index));
    const followed = seen.get(index);
    if (followed?.view === view(frames.get(0))) return areaFields({ ...CENTRED, ...followed });
    return null;
  }

  function cropped(index: number, area: Area) {
    if (index === 0 || frames.hasOwn(index)) return frames.update(index, (f) => ({ ...f, area }));
    setSeen((s) => new Map(s).set(index, { view: view(frames.get(0)), area }));
  }

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/crop"
      submitLabel={t('crop.submit')}
      downloadOnDone
      failedMessage={t('crop.failed')}
      showSizes={false}
      onFileChange={() => {
        frames.reset();
        setSeen(new Map());
      }}
      fields={(form) => {
        for (const [name, value] of Object.entries(areaFields(frames.get(0))))
          form.append(name, value);
      }}
      perFile={{ files: frames, fields: fileFields }}
      editor={({ url, index }) => {
        const { crop, zoom } = frames.get(index);
        const setZoom = (value: number) => frames.update(index, (f) => ({ ...f, zoom: value }));
        return (
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
                onCropChange={(value) => frames.update(index, (f) => ({ ...f, crop: value }))}
                onZoomChange={setZoom}
                onCropComplete={(_, pixels) => cropped(index, pixels)}
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
        );
      }}
    />
  );
}
