import { compressVideoFieldsSchema } from '@refract/contracts';
import { compressedAudioKbps, VIDEO_AAC_RULE, videoRateCap } from '../media/av/compress-rates.js';
import { mediaTool } from './media-tool.js';

/**
 * The percentage is the quality to keep: 90 maps to CRF 18 (visually lossless), 10 to CRF 40
 * (small and soft), in a straight line between.
 */
export const crfFor = (percentage: number) => Math.round(40 - ((percentage - 10) * 22) / 80);

export const compressVideoTool = mediaTool({
  id: 'compressVideo',
  path: '/api/video/compress-video',
  summary: 'Compress a video to h264 mp4',
  fileField: 'video',
  fields: compressVideoFieldsSchema,
  service: 'compress-video',
  target: () => 'mp4',
  name: { suffix: 'compressed', fallback: 'compressed-video' },
  // The sound track follows Compress audio's rule: a share of its own bitrate.
  compress: ({ percentage }, probe) => [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crfFor(percentage))],
    ...videoRateCap(probe),
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-b:a', `${compressedAudioKbps(probe, percentage, VIDEO_AAC_RULE)}k`],
    ...['-movflags', '+faststart'],
  ],
});
