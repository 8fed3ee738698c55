import {
  fitMemeText,
  memeBandPx,
  memeBlockHeight,
  memeFieldsSchema,
  memeFontPx,
  memeLineHeightPx,
  memeLineTops,
  memeMarginPx,
  memeOutlinePx,
  memeWords,
  MEME_MEASURE_PX,
  toolById,
  type MemeFields,
  type MemeBlock,
  type MemeFit,
  type MemeMeasure,
} from '@refract/contracts';
import type { OverlayOptions } from 'sharp';
import { clipOverlay } from '../media/image/overlay.js';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import { measureInkWidths, renderText, textBoundsFor } from '../media/image/text.js';
import type { ToolDefinition } from './tool-definition.js';

const BANDS = { white: '#ffffff', black: '#000000' } as const;

/** Ink widths of every word at MEME_MEASURE_PX, as the browser's canvas measures them. */
async function measureWords(texts: string[], signal?: AbortSignal): Promise<MemeMeasure> {
  const words = texts.flatMap(memeWords);
  const widths = await measureInkWidths([...words, 'I I', 'II'], 'meme', MEME_MEASURE_PX, signal);
  return {
    word: (word) => widths.get(word) ?? 0,
    space: widths.get('I I')! - widths.get('II')!,
  };
}

export const memeTool: ToolDefinition<MemeFields> = {
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
    const measure = await measureWords(
      [fields.topText, fields.bottomText, ...fields.boxes.map((box) => box.text)],
      signal,
    );
    const margin = memeMarginPx(width, height);
    const fit = (text: string, fontSize: number, maxWidth: number) =>
      fitMemeText(text, memeFontPx(height, fontSize), Math.max(1, maxWidth), measure);
    const top = fit(fields.topText, fields.fontSize, width - 2 * margin);
    const bottom = fit(fields.bottomText, fields.fontSize, width - 2 * margin);

    const outside = fields.position === 'outside';
    const topBand = outside ? memeBandPx(top, margin) : 0;
    const bottomBand = outside ? memeBandPx(bottom, margin) : 0;
    const canvas = { width, height: height + topBand + bottomBand };
    // Inside: white with a black outline, readable on any photo. Outside: the band's opposite.
    const onPhoto = (fit: MemeFit) => ({
      color: BANDS.white,
      outlinePx: memeOutlinePx(fit.fontPx, fields.outline),
    });
    const onBand = {
      color: fields.background === 'white' ? BANDS.black : BANDS.white,
      outlinePx: 0,
    };
    const blocks: MemeBlock[] = [
      {
        fit: top,
        centreX: width / 2,
        top: outside ? (topBand - memeBlockHeight(top)) / 2 : margin,
        ...(outside ? onBand : onPhoto(top)),
      },
      {
        fit: bottom,
        centreX: width / 2,
        top: outside
          ? topBand + height + (bottomBand - memeBlockHeight(bottom)) / 2
          : height - margin - memeBlockHeight(bottom),
        ...(outside ? onBand : onPhoto(bottom)),
      },
      ...fields.boxes.map((box) => {
        const boxFit = fit(box.text, box.fontSize ?? fields.fontSize, box.width * width);
        return {
          fit: boxFit,
          centreX: box.x * width,
          top: topBand + box.y * height - memeBlockHeight(boxFit) / 2,
          ...onPhoto(boxFit),
        };
      }),
    ];

    const bounds = textBoundsFor(canvas);
    // One line after the other: each is its own pipelines, and they share the process's slots.
    const overlays: OverlayOptions[] = [];
    for (const block of blocks) {
      const lineHeight = memeLineHeightPx(block.fit.fontPx);
      const tops = memeLineTops(block.fit);
      for (const [index, line] of block.fit.lines.entries()) {
        const rendered = await renderText({
          text: line,
          font: 'meme',
          sizePx: Math.min(block.fit.fontPx, bounds.maxSizePx),
          color: block.color,
          outlinePx: block.outlinePx,
          outlineColor: BANDS.black,
          maxPixels: bounds.maxPixels,
          signal,
        });
        // The line's ink is centred in its slot, as the preview centres its measured ink.
        const inset = rendered.inset ?? 0;
        const inkHeight = rendered.height - 2 * inset;
        const left = block.centreX - rendered.width / 2;
        const y = block.top + tops[index]! + (lineHeight - inkHeight) / 2 - inset;
        const overlay = await clipOverlay(rendered, left, y, canvas, signal);
        if (overlay) overlays.push(overlay);
      }
    }
    let pipeline = image.pipeline();
    if (outside) {
      pipeline = pipeline.extend({
        top: topBand,
        bottom: bottomBand,
        background: BANDS[fields.background],
      });
    }
    const result = await writeOwnFormat(image, pipeline.composite(overlays), workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'meme', fallback: 'meme' }),
    };
  },
};
