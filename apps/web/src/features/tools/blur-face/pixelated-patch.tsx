import { pixelBlockSize } from '@refract/contracts';
import { useEffect, useRef } from 'react';
import type { BlurRect } from './blur-areas';

/**
 * The area as the server pixelates it: blocks of `pixelBlockSize` source pixels from the area's
 * top-left corner, each one colour (nearest neighbour both ways), cut at the area's edge.
 */
export function PixelatedPatch(props: {
  image: HTMLImageElement;
  area: BlurRect;
  strength: number;
  /** Preview pixels per source pixel. */
  scale: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const x = Math.round(props.area.x);
  const y = Math.round(props.area.y);
  const width = Math.round(props.area.width);
  const height = Math.round(props.area.height);
  const { image, strength, scale } = props;
  // The same <img> shows each file of a batch in turn: its source says which one is drawn.
  const source = image.currentSrc;

  useEffect(() => {
    const target = canvas.current?.getContext('2d');
    if (!target) return;
    const block = pixelBlockSize({ width, height }, strength);
    const columns = Math.ceil(width / block);
    const rows = Math.ceil(height / block);
    const small = document.createElement('canvas');
    small.width = columns;
    small.height = rows;
    const shrunk = small.getContext('2d')!;
    shrunk.imageSmoothingEnabled = false;
    shrunk.drawImage(image, x, y, columns * block, rows * block, 0, 0, columns, rows);
    target.imageSmoothingEnabled = false;
    target.clearRect(0, 0, target.canvas.width, target.canvas.height);
    target.drawImage(small, 0, 0, columns * block * scale, rows * block * scale);
  }, [image, source, x, y, width, height, strength, scale]);

  return (
    <canvas
      ref={canvas}
      aria-hidden
      data-testid="blur-area-pixels"
      width={Math.max(1, Math.round(width * scale))}
      height={Math.max(1, Math.round(height * scale))}
      // Over the area's 2 px border (a child paints above it), so the canvas draws it again.
      style={{
        position: 'absolute',
        left: -2,
        top: -2,
        pointerEvents: 'none',
        borderRadius: 4,
        outline: '2px solid var(--mantine-color-blue-5)',
        outlineOffset: -2,
      }}
    />
  );
}
