import { useRef, type PointerEvent } from 'react';

/** The arrow keys as a step in x and y: an editor's frames move, or resize, by them. */
export const ARROW_STEPS: Readonly<Record<string, readonly [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export interface DragMove<Start, Mode> {
  /** What is dragged: the frame, or which handle. */
  mode: Mode;
  /** The value the drag began from (a frame, a box). */
  start: Start;
  /** How far the pointer has gone since it went down, in client pixels. */
  dx: number;
  dy: number;
  /** The element that has the handlers (to measure what it sits on). */
  target: HTMLElement;
}

/**
 * A pointer drag on an editor's frame (crop, blur areas, meme boxes) or one of its handles.
 * `begin(event, mode, start)` on the pointer going down, with the main button: the pointer is
 * captured, so its moves come back wherever it goes. `handlers` go on the frame; a handle's
 * moves bubble to it. `onMove` hears each move, from where the drag began.
 */
export function usePointerDrag<Start, Mode>(onMove: (move: DragMove<Start, Mode>) => void) {
  const drag = useRef<{ mode: Mode; start: Start; x: number; y: number } | null>(null);
  const end = () => {
    drag.current = null;
  };
  return {
    begin(event: PointerEvent<Element>, mode: Mode, start: Start) {
      if (event.button !== 0) return;
      // A handle's press is its own, not also the frame's.
      event.stopPropagation();
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { mode, start, x: event.clientX, y: event.clientY };
    },
    handlers: {
      onPointerMove(event: PointerEvent<HTMLElement>) {
        const current = drag.current;
        if (!current) return;
        onMove({
          mode: current.mode,
          start: current.start,
          dx: event.clientX - current.x,
          dy: event.clientY - current.y,
          target: event.currentTarget,
        });
      },
      onPointerUp: end,
      onPointerCancel: end,
    },
  };
}
