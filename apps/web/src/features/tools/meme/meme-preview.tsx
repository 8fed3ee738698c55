import { Box } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@fontsource/anton/400.css';
import {
  drawMeme,
  memeFont,
  type MemeBoxDraft,
  type MemeLayout,
  type MemeSettings,
} from './draw-meme';
import { MemeBoxFrame } from './meme-box-frame';

/** A canvas that redraws the meme whenever the image or the settings change, with box frames. */
export function MemePreview(props: {
  url: string;
  meme: MemeSettings;
  onBox(box: MemeBoxDraft): void;
  onRemoveBox(id: number): void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [layout, setLayout] = useState<MemeLayout | null>(null);

  useEffect(() => {
    let live = true;
    const next = new Image();
    next.onload = () => {
      // Draw once the bundled Anton has loaded, so the preview matches the download.
      void document.fonts.load(memeFont(40)).finally(() => {
        if (live) setImage(next);
      });
    };
    next.src = props.url;
    return () => {
      live = false;
    };
  }, [props.url]);

  useEffect(() => {
    if (canvas.current && image) setLayout(drawMeme(canvas.current, image, props.meme));
  }, [image, props.meme]);

  return (
    <Box
      data-meme-stage
      pos="relative"
      mx="auto"
      w="fit-content"
      maw="100%"
      // Only the frames take touch drags: the page still scrolls over the picture.
      style={{ lineHeight: 0 }}
    >
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('meme.previewLabel')}
        data-testid="meme-preview"
        style={{
          display: 'block',
          maxWidth: '100%',
          maxHeight: 480,
          borderRadius: 'var(--mantine-radius-md)',
        }}
      />
      {layout &&
        image &&
        props.meme.boxes.map((box, index) => {
          const frame = layout.boxes.find((f) => f.id === box.id);
          return (
            frame && (
              <MemeBoxFrame
                key={box.id}
                box={box}
                frame={frame}
                index={index}
                canvas={layout}
                imageHeight={image.naturalHeight}
                onChange={props.onBox}
                onRemove={() => props.onRemoveBox(box.id)}
              />
            )
          );
        })}
    </Box>
  );
}
