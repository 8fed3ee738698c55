import { Box, Button, Group, Image, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconFaceId, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { detectFacesResponseSchema } from '@refract/contracts';
import { ErrorAlert } from '../../../components/error-alert';
import { useWhenSignedIn } from '../../../lib/session/account-gate';
import { postTool } from '../../../lib/upload';
import { useErrorMessage } from '../../../lib/use-error-message';
import { BlurAreaBox } from './blur-area-box';
import {
  clampRect,
  faceToArea,
  MAX_PREVIEW_WIDTH,
  MIN_AREA_PREVIEW_PX,
  NEW_AREA,
  newId,
  type BlurRect,
} from './blur-areas';
import type { HideSettings } from './blur-style';

/** The preview with its blur areas, and the buttons that add them by hand or by detection. */
export function BlurFaceEditor(props: {
  file: File;
  url: string;
  areas: BlurRect[];
  settings: HideSettings;
  onAreas(update: (areas: BlurRect[]) => BlurRect[]): void;
  /** Told when face detection starts and ends (the page waits for it before blurring). */
  onDetecting(detecting: boolean): void;
  /** "Blur all faces": find the faces as soon as the image is in, once, for review. */
  findFaces: boolean;
}) {
  const { t } = useTranslation();
  const whenSignedIn = useWhenSignedIn();
  const errorMessage = useErrorMessage();
  const frame = useElementSize();
  // A new object on each load: the same <img> shows the next file of a batch.
  const [natural, setNatural] = useState<{
    width: number;
    height: number;
    image: HTMLImageElement;
  } | null>(null);
  const [detecting, setDetecting] = useState(false);
  const [detectError, setDetectError] = useState<string | null>(null);
  const [noFaces, setNoFaces] = useState(false);
  const foundOnce = useRef(false);

  // Preview pixels per source pixel; the preview is never larger than the image.
  const scale = natural && frame.width > 0 ? frame.width / natural.width : 0;
  const keepInside = (area: BlurRect) =>
    natural ? clampRect(area, natural, MIN_AREA_PREVIEW_PX / scale) : area;

  function add() {
    if (!scale) return;
    props.onAreas((areas) => [
      ...areas,
      keepInside({
        id: newId(),
        x: NEW_AREA.x / scale,
        y: NEW_AREA.y / scale,
        width: NEW_AREA.size / scale,
        height: NEW_AREA.size / scale,
      }),
    ]);
  }

  async function detect() {
    foundOnce.current = true;
    setDetecting(true);
    props.onDetecting(true);
    setDetectError(null);
    setNoFaces(false);
    try {
      const form = new FormData();
      form.append('image', props.file);
      const response = await postTool('/api/detect-faces', form, () => undefined);
      const { faces } = detectFacesResponseSchema.parse(JSON.parse(await response.blob.text()));
      setNoFaces(faces.length === 0);
      props.onAreas((areas) => [...areas, ...faces.map((face) => keepInside(faceToArea(face)))]);
    } catch (err) {
      setDetectError(errorMessage(err));
    } finally {
      setDetecting(false);
      props.onDetecting(false);
    }
  }

  // Once per file (the editor is made afresh for each): turned off and on, nothing is found twice.
  const { findFaces } = props;
  useEffect(() => {
    if (!findFaces || !scale || foundOnce.current) return;
    foundOnce.current = true;
    whenSignedIn(() => void detect());
  });

  return (
    <>
      <Box
        ref={frame.ref}
        pos="relative"
        mx="auto"
        w="fit-content"
        maw={`min(100%, ${MAX_PREVIEW_WIDTH}px)`}
        style={{ lineHeight: 0, touchAction: 'none' }}
      >
        <Image
          src={props.url}
          alt={t('tool.preview')}
          maw={`min(100%, ${MAX_PREVIEW_WIDTH}px)`}
          draggable={false}
          style={{ userSelect: 'none' }}
          onLoad={(event) =>
            setNatural({
              width: event.currentTarget.naturalWidth,
              height: event.currentTarget.naturalHeight,
              image: event.currentTarget,
            })
          }
        />
        {scale > 0 &&
          props.areas.map((area, index) => (
            <BlurAreaBox
              key={area.id}
              area={area}
              index={index}
              scale={scale}
              settings={props.settings}
              image={natural?.image ?? null}
              onChange={(next) =>
                props.onAreas((areas) =>
                  areas.map((a) => (a.id === next.id ? keepInside(next) : a)),
                )
              }
              onRemove={() => props.onAreas((areas) => areas.filter((a) => a.id !== area.id))}
            />
          ))}
      </Box>
      <Text size="sm" c="dimmed">
        {t('blurFace.hint')}
      </Text>
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={18} />}
          onClick={add}
          disabled={!scale}
        >
          {t('blurFace.add')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconFaceId size={18} />}
          onClick={() => whenSignedIn(() => void detect())}
          loading={detecting}
          disabled={!scale}
        >
          {t('blurFace.detect')}
        </Button>
        <Text size="sm" aria-live="polite">
          {detecting
            ? t('blurFace.detecting')
            : noFaces
              ? t('blurFace.noFaces')
              : t('blurFace.count', { count: props.areas.length })}
        </Text>
      </Group>
      <ErrorAlert message={detectError} />
    </>
  );
}
