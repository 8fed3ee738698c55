import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '@fontsource/anton/400.css';
import { drawMeme, MEME_FONT, type MemeSettings } from './draw-meme';

/** A canvas that redraws the meme whenever the image or the settings change. */
export function MemePreview({ url, meme }: { url: string; meme: MemeSettings }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const image = useRef<HTMLImageElement | null>(null);

  useEffect(() => {
    let live = true;
    const next = new Image();
    next.onload = () => {
      // Draw once the bundled Anton has loaded, so the preview matches the download.
      void document.fonts.load(MEME_FONT).finally(() => {
        if (!live || !canvas.current) return;
        image.current = next;
        drawMeme(canvas.current, next, meme);
      });
    };
    next.src = url;
    return () => {
      live = false;
    };
    // Only a new image reloads; setting changes redraw below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  useEffect(() => {
    if (canvas.current && image.current) drawMeme(canvas.current, image.current, meme);
  }, [meme]);

  return (
    <canvas
      ref={canvas}
      role="img"
      aria-label={t('meme.previewLabel')}
      data-testid="meme-preview"
      style={{
        display: 'block',
        margin: '0 auto',
        maxWidth: '100%',
        maxHeight: 480,
        borderRadius: 'var(--mantine-radius-md)',
      }}
    />
  );
}
