import sharp, { type OverlayOptions } from 'sharp';
import {
  markCentres,
  toolById,
  turnedBox,
  watermarkFieldsSchema,
  type WatermarkFields,
} from '@refract/contracts';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { clipOverlay, fadeOverlay, rotateOverlay } from '../media/image/overlay.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { TextImage } from '../media/image/text.js';
import type { ToolDefinition } from './tool-definition.js';
import { LOGO_FILE, logoMark, textMark } from './watermark-mark.js';

export { watermarkText } from './watermark-mark.js';

/**
 * The overlays that put the (turned, faded) mark at each centre. The mark is decoded once and
 * handed to libvips as raw pixels, so a tiled watermark (at most MAX_WATERMARK_TILES copies) is
 * one composite; a mark larger than the image is cut to it first, as sharp asks.
 */
async function placeAll(
  overlay: TextImage,
  centres: { x: number; y: number }[],
  base: { width: number; height: number },
  signal: AbortSignal,
): Promise<OverlayOptions[]> {
  const corner = (centre: { x: number; y: number }) => ({
    left: Math.round(centre.x - overlay.width / 2),
    top: Math.round(centre.y - overlay.height / 2),
  });
  if (overlay.width > base.width || overlay.height > base.height) {
    const placed = [];
    for (const centre of centres) {
      const { left, top } = corner(centre);
      placed.push(await clipOverlay(overlay, left, top, base, signal));
    }
    return placed.filter((entry) => entry !== null);
  }
  // One mark is composited from its PNG: its raw pixels (up to 100 MB) as a Buffer would make
  // V8 collect garbage on the event loop, twice or more per request.
  if (centres.length === 1) return [{ input: overlay.png, ...corner(centres[0]!) }];
  const pixels = await inImageSlot(() => sharp(overlay.png).ensureAlpha().raw().toBuffer(), signal);
  const raw = { width: overlay.width, height: overlay.height, channels: 4 as const };
  return centres.map((centre) => ({ input: pixels, raw, ...corner(centre) }));
}

export const watermarkTool: ToolDefinition<WatermarkFields> = {
  id: 'watermark',
  path: '/api/watermark',
  summary: 'Add a text or logo watermark to an image: placed, anchored or tiled',
  fileField: 'image',
  extraFiles: [LOGO_FILE],
  errors: ['text_too_large', 'invalid_logo', 'logo_too_large'],
  mapError: toImageError,
  maxBytes: toolById('watermark').maxUploadBytes,
  fields: watermarkFieldsSchema,
  service: () => 'security-watermark',
  async run({ input, inputName, fields, extraFiles, workDir, signal }) {
    const image = await loadImage(input, signal);
    const base = (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;
    const mark =
      fields.mark === 'logo'
        ? await logoMark(extraFiles?.logo, fields, base, signal)
        : await textMark(fields, base, signal);
    const turned = await rotateOverlay(mark.overlay, fields.rotation, signal);
    const faded = await fadeOverlay(turned, fields.opacity, signal);
    const centres = markCentres(fields, base, turnedBox(mark.box, fields.rotation));
    const overlays = fields.opacity > 0 ? await placeAll(faded, centres, base, signal) : [];
    const pipeline = image.pipeline().composite(overlays);
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
