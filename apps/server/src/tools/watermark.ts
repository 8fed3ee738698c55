import { join } from 'node:path';
import { toolById, WATERMARK_BASE_FONT_PX, watermarkFieldsSchema } from '@refract/contracts';
import type { z } from 'zod';
import { clipOverlay, fadeOverlay, rotateOverlay } from '../media/image/overlay.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { renderText } from '../media/image/text.js';
import type { ToolDefinition } from './tool-definition.js';

/** Outline width as a share of the font size: thin, but visible on a light background. */
const OUTLINE_RATIO = 1 / 20;

export const watermarkTool: ToolDefinition<z.output<typeof watermarkFieldsSchema>> = {
  id: 'watermark',
  path: '/api/watermark',
  summary: 'Add a text watermark to an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('watermark').maxUploadBytes,
  fields: watermarkFieldsSchema,
  service: () => 'security-watermark',
  async run({ input, fields, workDir }) {
    const image = await loadImage(input);
    const { width, height } = (await image.pipeline().metadata()).autoOrient;
    // The user sized the text on a preview; the download keeps that proportion of the width.
    const sizePx = WATERMARK_BASE_FONT_PX * fields.scale * (width / (fields.previewWidth ?? width));
    const text = await renderText({
      text: fields.text,
      font: 'text',
      sizePx,
      color: '#ffffff',
      outlinePx: sizePx * OUTLINE_RATIO,
      outlineColor: '#000000',
    });
    const overlay = await fadeOverlay(await rotateOverlay(text, fields.rotation), fields.opacity);
    const placed = await clipOverlay(
      overlay,
      fields.x * width - overlay.width / 2,
      fields.y * height - overlay.height / 2,
      { width, height },
    );
    const path = join(workDir, 'result.png');
    await image
      .pipeline()
      .composite(placed ? [placed] : [])
      .png()
      .toFile(path);
    return { path, contentType: 'image/png', filename: 'watermarked-image.png' };
  },
};
