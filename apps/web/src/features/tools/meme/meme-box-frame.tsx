import { Box } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ARROW_STEPS, usePointerDrag } from '../../../components/tool/use-pointer-drag';
import type { BoxFrame, MemeBoxDraft } from './draw-meme';

/** Arrow keys move a box by this share of the image; Shift with left/right narrows or widens it. */
const KEY_STEP = 0.01;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Keeps the width between 5 % and the whole image, and the box within the image's sides. */
export function keepBoxInside(box: MemeBoxDraft): MemeBoxDraft {
  const width = clamp(box.width, 0.05, 1);
  return { ...box, width, x: clamp(box.x, width / 2, 1 - width / 2), y: clamp(box.y, 0, 1) };
}

/**
 * One text box's frame over the preview canvas, in percentages of the canvas: drag it to move,
 * drag its right edge to resize, or focus it and use the arrow keys (Delete removes it).
 */
export function MemeBoxFrame(props: {
  box: MemeBoxDraft;
  frame: BoxFrame;
  index: number;
  /** The canvas (image plus bands) and the image's own size, in canvas pixels. */
  canvas: { width: number; height: number };
  imageHeight: number;
  onChange(box: MemeBoxDraft): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { box, frame, canvas } = props;
  const drag = usePointerDrag<MemeBoxDraft, 'move' | 'resize'>(
    ({ mode, start, dx, dy, target }) => {
      const shown = target.closest('[data-meme-stage]')?.getBoundingClientRect();
      if (!shown) return;
      // Client pixels to fractions of the image (the canvas is as wide as the image).
      const x = dx / shown.width;
      const y = (dy / shown.height) * (canvas.height / props.imageHeight);
      props.onChange(
        keepBoxInside(
          mode === 'move'
            ? { ...start, x: start.x + x, y: start.y + y }
            : { ...start, width: start.width + 2 * x },
        ),
      );
    },
  );

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Delete') {
      event.preventDefault();
      return props.onRemove();
    }
    const direction = ARROW_STEPS[event.key];
    if (!direction) return;
    event.preventDefault();
    const [dx, dy] = direction.map((d) => d * KEY_STEP) as [number, number];
    props.onChange(
      keepBoxInside(
        event.shiftKey
          ? { ...box, width: box.width + 2 * dx }
          : { ...box, x: box.x + dx, y: box.y + dy },
      ),
    );
  }

  const percent = (value: number, of: number) => `${(value / of) * 100}%`;

  return (
    <Box
      role="group"
      tabIndex={0}
      aria-label={t('meme.boxLabel', { number: props.index + 1 })}
      data-testid="meme-box"
      onKeyDown={onKeyDown}
      onPointerDown={(event) => drag.begin(event, 'move', box)}
      {...drag.handlers}
      pos="absolute"
      left={percent(frame.left, canvas.width)}
      top={percent(frame.top, canvas.height)}
      w={percent(frame.width, canvas.width)}
      h={percent(frame.height, canvas.height)}
      style={{
        border: '2px dashed var(--mantine-color-blue-4)',
        borderRadius: 4,
        cursor: 'move',
        touchAction: 'none',
        outlineOffset: 2,
      }}
    >
      <Box
        aria-hidden
        pos="absolute"
        right={-7}
        top="calc(50% - 7px)"
        w={14}
        h={14}
        bg="blue.5"
        style={{ borderRadius: 3, cursor: 'ew-resize', touchAction: 'none' }}
        data-testid="meme-box-resize"
        // Its moves bubble to the box's handlers.
        onPointerDown={(event) => drag.begin(event, 'resize', box)}
      />
    </Box>
  );
}
