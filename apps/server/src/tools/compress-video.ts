import { compressVideoFieldsSchema } from '@refract/contracts';
import { planVideo } from '../media/av/video-plan.js';
import { mediaTool } from './media-tool.js';

/**
 * The percentage is the quality to keep (video-plan.ts: for H.264, 90 maps to CRF 18, visually
 * lossless, and 10 to CRF 40, small and soft); a `targetSize` replaces it.
 */
export const compressVideoTool = mediaTool({
  id: 'compressVideo',
  path: '/api/video/compress-video',
  summary: 'Compress a video to mp4 at a quality or under a target size',
  fileField: 'video',
  fields: compressVideoFieldsSchema,
  service: 'compress-video',
  target: () => 'mp4',
  name: { suffix: 'compressed', fallback: 'compressed-video' },
  compress: true,
  plan: ({ percentage, ...fields }, probe, { config }) =>
    planVideo({
      fields,
      probe,
      format: 'mp4',
      compressPercentage: fields.targetSize === undefined ? percentage : undefined,
      maxPixels: config.media.maxPixels,
      keyframeAt: async () => false, // Compress always encodes.
    }),
});
