import { toolById, WATERMARK_BASE_FONT_PX, watermarkFieldsSchema } from '@refract/contracts';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { clipOverlay, fadeOverlay, rotateOverlay } from '../media/image/overlay.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import { renderText, textBoundsFor } from '../media/image/text.js';
import type { ToolDefinition } from './tool-definition.js';

/** Outline width as a share of the font size: thin, but visible on a light background. */
const OUTLINE_RATIO = 1 / 20;

type Fields = z.output<typeof watermarkFieldsSchema>;

/**
 * The text as the user sized it on a preview (the download keeps that proportion of the
 * width), held to the image: `scale=3 previewWidth=12` once asked for a font ten times the
 * image's width and an outline half as wide, minutes of CPU.
 */
export function watermarkText(fields: Fields, image: { width: number; height: number }) {
  const bounds = textBoundsFor(image);
  const previewWidth = fields.previewWidth ?? image.width;
  const sizePx = Math.min(
    bounds.maxSizePx,
    WATERMARK_BASE_FONT_PX * fields.scale * (image.width / previewWidth),
  );
  return {
    text: fields.text,
    font: 'text' as const,
    sizePx,
    color: '#ffffff',
    outlinePx: sizePx * OUTLINE_RATIO,
    outlineColor: '#000000',
    maxPixels: bounds.maxPixels,
  };
}

export const watermarkTool: ToolDefinition<Fields> = {
  id: 'watermark',
  path: '/api/watermark',
  summary: 'Add a text watermark to an image',
  fileField: 'image',
  errors: ['text_too_large'],
  mapError: toImageError,
  maxBytes: toolById('watermark').maxUploadBytes,
  fields: watermarkFieldsSchema,
  service: () => 'security-watermark',
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    const text = await renderText({ ...watermarkText(fields, { width, height }), signal });
    const rotated = await rotateOverlay(text, fields.rotation, signal);
    const overlay = await fadeOverlay(rotated, fields.opacity, signal);
    const placed = await clipOverlay(
      overlay,
      fields.x * width - overlay.width / 2,
      fields.y * height - overlay.height / 2,
      { width, height },
      signal,
    );
    const pipeline = image.pipeline().composite(placed ? [placed] : []);
    const result = await writeOwnFormat(image, pipeline, workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, {
        ...result,
        suffix: 'watermarked',
        fallback: 'watermarked-image',
      }),
    };
  },
};
