import potrace from 'potrace';
import type { Sharp } from 'sharp';
import { inImageSlot } from './slots.js';

/** Tracing is pure JavaScript; bound its input so a large photo cannot stall the server. */
const MAX_TRACE_SIDE = 1500;

/**
 * A real vector: the image traced into SVG paths by potrace, in 4 tone layers (not a
 * raster wrapped in an <svg>).
 */
export async function traceToSvg(pipeline: Sharp, signal?: AbortSignal): Promise<string> {
  const png = await inImageSlot(
    () =>
      pipeline
        .flatten({ background: '#ffffff' })
        .resize({
          width: MAX_TRACE_SIDE,
          height: MAX_TRACE_SIDE,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .png()
        .toBuffer(),
    signal,
  );
  return new Promise((resolve, reject) => {
    potrace.posterize(png, { steps: 4 }, (err: Error | null, svg: string) =>
      err ? reject(err) : resolve(svg),
    );
  });
}
