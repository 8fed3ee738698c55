import {
  toolById,
  UPSCALE_MAX_INPUT_PIXELS,
  UPSCALE_MAX_RESULT_PIXELS,
  UPSCALE_MODEL_SECONDS_PER_MP,
  upscaleFieldsSchema,
} from '@refract/contracts';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError, type LoadedImage } from '../media/image/pipeline.js';
import { inImageSlot, withTimeLimit } from '../media/image/slots.js';
import {
  superResolveToFile,
  takeModelTurn,
  type UpscaleFactor,
} from '../media/upscale/super-resolution.js';
import type { ToolContext, ToolDefinition, ToolResult } from './tool-definition.js';

type Fields = z.output<typeof upscaleFieldsSchema>;

const megapixels = (pixels: number) => `${pixels / 1_000_000}`;

/**
 * The model's whole run at most: ten times the page's estimate (UPSCALE_MODEL_SECONDS_PER_MP),
 * so a 4 MP photo at ×4 may take two hours on a machine ten times busier than the bench's, and
 * never under three minutes; past it the job ends as 504 processing_timeout.
 */
const modelTimeLimitMs = (pixels: number, scale: UpscaleFactor) =>
  Math.max(180_000, (pixels / 1_000_000) * UPSCALE_MODEL_SECONDS_PER_MP[scale] * 10_000);

/** Refuses an image whose result would be past the largest we write (422). */
function refuseTooLarge(size: { width: number; height: number }, fields: Fields) {
  const scale = Number(fields.scale) as UpscaleFactor;
  const pixels = size.width * size.height;
  if (pixels > UPSCALE_MAX_INPUT_PIXELS[scale])
    throw new AppError(
      422,
      'image_too_large',
      `An upscale gives at most ${megapixels(UPSCALE_MAX_RESULT_PIXELS)} megapixels, so it takes images of up to ${megapixels(UPSCALE_MAX_INPUT_PIXELS[scale])} megapixels at ×${scale}; this one has ${(pixels / 1_000_000).toFixed(1)}.`,
    );
}

/** Width and height as displayed, after the EXIF orientation is applied. */
const displayedSize = async (image: LoadedImage, signal?: AbortSignal) =>
  (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;

/**
 * The model's result as a sharp pipeline: the RGB comes from the network, tile by tile, into a
 * file in the job's folder (never one Buffer of the whole picture), and an alpha channel (which
 * the network does not take) is enlarged with lanczos and joined back.
 * Pixels are read as sRGB, so a Display P3 photo's colours stay right (its gamut is clipped).
 */
async function modelPipeline(
  image: LoadedImage,
  size: { width: number; height: number },
  scale: UpscaleFactor,
  context: { signal: AbortSignal; workDir: string; onProgress(fraction: number): void },
): Promise<Sharp> {
  const { signal } = context;
  const source = () => image.pipeline().withIccProfile('srgb');
  const { data: rgb, info } = await inImageSlot(
    () => source().removeAlpha().raw().toBuffer({ resolveWithObject: true }),
    signal,
  );
  const upscaled = join(context.workDir, 'upscaled.v');
  await superResolveToFile(rgb, info.width, info.height, scale, upscaled, {
    signal,
    onTile: (done, total) => context.onProgress(done / total),
  });
  const raw = { width: info.width * scale, height: info.height * scale };
  const result = sharp(upscaled);
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
  errors: ['image_too_large', 'server_busy', 'engine_unavailable', 'processing_timeout'],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('upscale').maxUploadBytes,
  fields: upscaleFieldsSchema,
  service: () => 'optimize-upscale',
  // A job, as audio and video are: an upscale of a photo takes from seconds to minutes, so the
  // page follows its progress by tiles and may cancel it; the API may still wait for the file.
  runsAs: 'job',
  // The model runs one upscale of a user at a time: their next stays queued meanwhile.
  oneAtATime: true,
  // The size is refused as the upload ends, before anything is charged or queued.
  async inspect(input, fields) {
    refuseTooLarge(await displayedSize(await loadImage(input)), fields);
  },
  async run(context) {
    // The user's turn at the model is taken first, before any work on the image, and held to
    // the end: a second upscale of theirs waits for it (see takeModelTurn).
    const turn =
      context.fields.method === 'model' && context.owner
        ? await takeModelTurn(context.owner.userId, context.signal)
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
  const size = await displayedSize(image, signal);
  refuseTooLarge(size, fields);
  const pipeline =
    fields.method === 'model'
      ? await withTimeLimit(modelTimeLimitMs(size.width * size.height, scale), signal, (limited) =>
          modelPipeline(image, size, scale, { signal: limited, workDir, onProgress }),
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
  };
}
