import {
  toolById,
  UPSCALE_MAX_RESULT_PIXELS,
  UPSCALE_MODEL_MAX_PIXELS,
  upscaleFieldsSchema,
} from '@refract/contracts';
import sharp, { type Sharp } from 'sharp';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError, type LoadedImage } from '../media/image/pipeline.js';
import { inImageSlot, withTimeLimit } from '../media/image/slots.js';
import {
  superResolve,
  takeModelTurn,
  type UpscaleFactor,
} from '../media/upscale/super-resolution.js';
import type { ToolContext, ToolDefinition, ToolResult } from './tool-definition.js';

type Fields = z.output<typeof upscaleFieldsSchema>;

const megapixels = (pixels: number) => `${pixels / 1_000_000}`;

/**
 * The model's whole run at most: the largest input took about a minute on a 2-core machine at
 * load 20 (bench/upscale.bench.mjs); past three minutes 504 processing_timeout, uncharged.
 */
const MODEL_TIME_LIMIT_MS = 180_000;

/**
 * The model's result as a sharp pipeline: the RGB comes from the network, tile by tile, and an
 * alpha channel (which the network does not take) is enlarged with lanczos and joined back.
 * Pixels are read as sRGB, so a Display P3 photo's colours stay right (its gamut is clipped).
 */
async function modelPipeline(
  image: LoadedImage,
  size: { width: number; height: number },
  scale: UpscaleFactor,
  context: { signal: AbortSignal; onProgress(fraction: number): void },
): Promise<Sharp> {
  const { signal } = context;
  const source = () => image.pipeline().withIccProfile('srgb');
  const { data: rgb, info } = await inImageSlot(
    () => source().removeAlpha().raw().toBuffer({ resolveWithObject: true }),
    signal,
  );
  const upscaled = await superResolve(rgb, info.width, info.height, scale, {
    signal,
    onTile: (done, total) => context.onProgress(done / total),
  });
  const raw = { width: info.width * scale, height: info.height * scale };
  const result = sharp(upscaled, { raw: { ...raw, channels: 3 } });
  const { hasAlpha } = await inImageSlot(() => image.pipeline().metadata(), signal);
  if (!hasAlpha) return result;
  const alpha = await inImageSlot(
    () =>
      source()
        .extractChannel(3)
        .resize(size.width * scale, size.height * scale, { kernel: 'lanczos3' })
        .raw()
        .toBuffer(),
    signal,
  );
  return result.joinChannel(alpha, { raw: { ...raw, channels: 1 } });
}

export const upscaleTool: ToolDefinition<Fields> = {
  id: 'upscale',
  path: '/api/upscale',
  summary: 'Upscale an image ×2 or ×4 with a super-resolution model, or fast with lanczos',
  errors: [
    'image_too_large',
    'server_busy',
    'too_many_upscales',
    'engine_unavailable',
    'processing_timeout',
  ],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('upscale').maxUploadBytes,
  fields: upscaleFieldsSchema,
  service: () => 'optimize-upscale',
  async run(context) {
    // The user's turn at the model is taken first, before any work on the image, and held to
    // the end: a second upscale of theirs is refused (or a job waits) at no cost.
    const turn =
      context.fields.method === 'model' && context.owner
        ? await takeModelTurn(context.owner.userId, {
            signal: context.signal,
            wait: context.owner.waits,
          })
        : undefined;
    try {
      return await upscale(context);
    } finally {
      turn?.free();
    }
  },
};

async function upscale({
  input,
  inputName,
  fields,
  workDir,
  signal,
  onProgress,
}: ToolContext<Fields>): Promise<ToolResult> {
  const scale = Number(fields.scale) as UpscaleFactor;
  const image = await loadImage(input, signal);
  // Width and height as displayed, after the EXIF orientation is applied.
  const size = (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;
  const pixels = size.width * size.height;
  if (fields.method === 'model' && pixels > UPSCALE_MODEL_MAX_PIXELS[scale])
    throw new AppError(
      422,
      'image_too_large',
      `The model upscales images of up to ${megapixels(UPSCALE_MODEL_MAX_PIXELS[scale])} megapixels ×${scale}; this one has ${(pixels / 1_000_000).toFixed(1)}. Use the fast method, or a smaller image.`,
    );
  if (pixels * scale * scale > UPSCALE_MAX_RESULT_PIXELS)
    throw new AppError(
      422,
      'image_too_large',
      `The result may be at most ${megapixels(UPSCALE_MAX_RESULT_PIXELS)} megapixels, so the image at most ${megapixels(UPSCALE_MAX_RESULT_PIXELS / scale / scale)} for ×${scale}`,
    );
  const pipeline =
    fields.method === 'model'
      ? await withTimeLimit(MODEL_TIME_LIMIT_MS, signal, (limited) =>
          modelPipeline(image, size, scale, { signal: limited, onProgress }),
        )
      : image.pipeline().resize(size.width * scale, size.height * scale, { kernel: 'lanczos3' });
  const result = await writeOwnFormat(image, pipeline, workDir, signal);
  return {
    ...result,
    filename: resultName(inputName, {
      ...result,
      suffix: 'upscaled',
      fallback: 'upscaled-image',
    }),
    headers: { 'x-upscale-method': fields.method, 'x-upscale-scale': String(scale) },
  };
}
