import { Box } from '@mantine/core';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ARROW_STEPS, usePointerDrag } from '../../../components/tool/use-pointer-drag';
import { clamp, inside, resized, type Frame, type Handle, type Size } from './crop-geometry';

const MAX_HEIGHT = 400;
/** The canvas is drawn at most this wide or high: enough to frame, light on memory. */
const MAX_DRAWN = 1200;

const HANDLES: (Handle & { id: string })[] = [
  { id: 'nw', left: true, top: true },
  { id: 'ne', right: true, top: true },
  { id: 'sw', left: true, bottom: true },
  { id: 'se', right: true, bottom: true },
  { id: 'n', top: true },
  { id: 's', bottom: true },
  { id: 'w', left: true },
  { id: 'e', right: true },
];

/**
 * The image as it will be cut (mirrored, then turned) with the frame over it: drag the frame
 * to move it, a corner or side to size it (corners only when the ratio is fixed), or focus it
 * and use the arrow keys (Shift: bigger steps). Coordinates are the image's, so the editor is
 * laid out left to right in every language.
 */
export function CropFrame(props: {
  image: HTMLImageElement;
  view: Size;
  turn: number;
  flipHorizontal: boolean;
  flipVertical: boolean;
  frame: Frame;
  ratio: number | null;
  onFrame(frame: Frame): void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const { image, view, turn, flipHorizontal, flipVertical, frame, ratio, onFrame } = props;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const scale = Math.min(1, MAX_DRAWN / Math.max(view.width, view.height));
    element.width = Math.round(view.width * scale);
    element.height = Math.round(view.height * scale);
    const context = element.getContext('2d')!;
    context.translate(element.width / 2, element.height / 2);
    context.rotate((turn * Math.PI) / 180);
    context.scale(flipHorizontal ? -1 : 1, flipVertical ? -1 : 1);
    const w = image.naturalWidth * scale;
    const h = image.naturalHeight * scale;
    context.drawImage(image, -w / 2, -h / 2, w, h);
  }, [image, view, turn, flipHorizontal, flipVertical]);

  /** Source pixels per screen pixel, as the canvas is shown now. */
  const perScreenPixel = () => view.width / (canvas.current?.getBoundingClientRect().width || 1);

  const drag = usePointerDrag<Frame, Handle | null>(({ mode: handle, start, dx, dy }) => {
    const scale = perScreenPixel();
    onFrame(
      handle
        ? resized(start, handle, dx * scale, dy * scale, ratio, view)
        : inside({ ...start, x: start.x + dx * scale, y: start.y + dy * scale }, view),
    );
  });
  function down(event: PointerEvent, handle: Handle | null) {
    event.preventDefault();
    drag.begin(event, handle, frame);
  }

  function key(event: KeyboardEvent) {
    const step = Math.max(1, Math.round((view.width * (event.shiftKey ? 10 : 1)) / 100));
    const by = ARROW_STEPS[event.key];
    if (!by) return;
    event.preventDefault();
    onFrame(inside({ ...frame, x: frame.x + by[0] * step, y: frame.y + by[1] * step }, view));
  }

  const percent = (value: number, of: number) => `${clamp((value / of) * 100, 0, 100)}%`;
  const handles = ratio === null ? HANDLES : HANDLES.slice(0, 4);
  return (
    <Box
      dir="ltr"
      bg="dark.8"
      p="sm"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        display: 'flex',
        justifyContent: 'center',
      }}
      role="group"
      aria-label={t('crop.areaLabel')}
    >
      <div style={{ position: 'relative', overflow: 'hidden', lineHeight: 0 }}>
        <canvas
          ref={canvas}
          style={{ display: 'block', maxWidth: '100%', maxHeight: MAX_HEIGHT }}
          aria-hidden
        />
        <div
          data-testid="crop-frame"
          tabIndex={0}
          role="group"
          aria-label={t('crop.frameLabel', {
            x: frame.x,
            y: frame.y,
            width: frame.width,
            height: frame.height,
          })}
          onKeyDown={key}
          onPointerDown={(event) => down(event, null)}
          {...drag.handlers}
          style={{
            position: 'absolute',
            left: percent(frame.x, view.width),
            top: percent(frame.y, view.height),
            width: percent(frame.width, view.width),
            height: percent(frame.height, view.height),
            border: '2px solid #fff',
            boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.55)',
            cursor: 'move',
            touchAction: 'none',
          }}
        >
          {handles.map((handle) => (
            <span
              key={handle.id}
              data-handle={handle.id}
              aria-hidden
              // Its moves bubble to the frame's handlers.
              onPointerDown={(event) => down(event, handle)}
              style={{
                position: 'absolute',
                // A 28 px target for a finger around a 12 px square to see.
                width: 28,
                height: 28,
                left: handle.left ? -14 : handle.right ? 'calc(100% - 14px)' : 'calc(50% - 14px)',
                top: handle.top ? -14 : handle.bottom ? 'calc(100% - 14px)' : 'calc(50% - 14px)',
                cursor: `${handle.top ? 'n' : handle.bottom ? 's' : ''}${handle.left ? 'w' : handle.right ? 'e' : ''}-resize`,
                touchAction: 'none',
                display: 'grid',
                placeItems: 'center',
              }}
            >
              <span style={{ width: 12, height: 12, background: '#fff', borderRadius: 2 }} />
            </span>
          ))}
        </div>
      </div>
    </Box>
  );
}
