import '@fontsource/anton/400.css';
import type { WatermarkFont } from '@refract/contracts';

/** The CSS faces of the server's bundled fonts (apps/server/src/media/image/text.ts). */
export function fontFamily(font: WatermarkFont): string {
  return font === 'condensed' ? "Anton, 'Noto Sans', sans-serif" : "'Noto Sans', sans-serif";
}

let context: CanvasRenderingContext2D | null = null;

/**
 * The text's ink box at `sizePx`, as the server's Pango probe measures it (libvips crops the
 * rendered text to its ink): the preview scales the text so that its width is the share of
 * the image the server draws, and places and tiles it by that box.
 */
export function measureText(text: string, font: WatermarkFont, sizePx: number) {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return { width: sizePx * text.length * 0.6, height: sizePx };
  context.font = `${sizePx}px ${fontFamily(font)}`;
  const ink = context.measureText(text);
  return {
    width: Math.max(1, ink.actualBoundingBoxLeft + ink.actualBoundingBoxRight),
    height: Math.max(1, ink.actualBoundingBoxAscent + ink.actualBoundingBoxDescent),
  };
}
