import { MEME_BAND_PX, MEME_FONT_PX, memeFieldsSchema, toolById } from '@refract/contracts';
import type { OverlayOptions } from 'sharp';
import type { z } from 'zod';
import { clipOverlay } from '../media/image/overlay.js';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import { renderText, textBoundsFor } from '../media/image/text.js';
import type { ToolDefinition } from './tool-definition.js';

type Fields = z.output<typeof memeFieldsSchema>;

/** Space kept between the text and the image's edges. */
const MARGIN_PX = 10;
const OUTLINE_PX = 3;
const BANDS = { white: '#ffffff', black: '#000000' } as const;

export const memeTool: ToolDefinition<Fields> = {
  id: 'meme',
  path: '/api/meme',
  summary: 'Add meme captions to an image',
  fileField: 'image',
  errors: ['text_too_large'],
  mapError: toImageError,
  maxBytes: toolById('meme').maxUploadBytes,
  fields: memeFieldsSchema,
  service: () => 'create-meme',
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    const outside = fields.position === 'outside';
    const band = outside ? MEME_BAND_PX : 0;
    const canvas = { width, height: height + 2 * band };
    const bounds = textBoundsFor(canvas);
    // Inside: white with a black outline, readable on any photo. Outside: the band's opposite.
    const style = outside
      ? { color: fields.background === 'white' ? BANDS.black : BANDS.white, outlinePx: 0 }
      : { color: BANDS.white, outlinePx: OUTLINE_PX, outlineColor: BANDS.black };
    const draw = async (text: string, where: 'top' | 'bottom'): Promise<OverlayOptions | null> => {
      if (!text) return null;
      const rendered = await renderText({
        text,
        font: 'meme',
        sizePx: Math.min(MEME_FONT_PX, bounds.maxSizePx),
        wrapWidth: Math.max(1, width - 2 * MARGIN_PX),
        maxPixels: bounds.maxPixels,
        signal,
        ...style,
      });
      const top = outside
        ? (where === 'top' ? 0 : band + height) + (band - rendered.height) / 2
        : where === 'top'
          ? MARGIN_PX
          : height - MARGIN_PX - rendered.height;
      return clipOverlay(rendered, (width - rendered.width) / 2, top, canvas, signal);
    };
    // One after the other: each text is its own pipelines, and they share the process's slots.
    const overlays: OverlayOptions[] = [];
    for (const [text, where] of [
      [fields.topText, 'top'],
      [fields.bottomText, 'bottom'],
    ] as const) {
      const overlay = await draw(text, where);
      if (overlay) overlays.push(overlay);
    }
    let pipeline = image.pipeline();
    if (outside) {
      pipeline = pipeline.extend({ top: band, bottom: band, background: BANDS[fields.background] });
    }
    const result = await writeOwnFormat(image, pipeline.composite(overlays), workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'meme', fallback: 'meme' }),
    };
  },
};
