import '@fontsource/anton/400.css';
import type { WatermarkFont } from '@refract/contracts';

/** The CSS faces of the server's bundled fonts (apps/server/src/media/image/text.ts). */
export function fontFamily(font: WatermarkFont): string {
  return font === 'condensed' ? "Anton, 'Noto Sans', sans-serif" : "'Noto Sans', sans-serif";
}

let context: CanvasRenderingContext2D | null = null;

/**
 * The text's width and line height at `sizePx`, as Pango's probe on the server measures them:
 * the preview scales the text so that its width is the share of the image the server draws.
 */
export function measureText(text: string, font: WatermarkFont, sizePx: number) {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return { width: sizePx * text.length * 0.6, height: sizePx * 1.36 };
  context.font = `${sizePx}px ${fontFamily(font)}`;
  const lines = text.split('\n');
  const metrics = lines.map((line) => context!.measureText(line));
  const width = Math.max(1, ...metrics.map((m) => m.width));
  const lineHeight = metrics[0]!.fontBoundingBoxAscent + metrics[0]!.fontBoundingBoxDescent;
  return { width, height: (lineHeight || sizePx * 1.36) * lines.length };
}
