import { compressAudioFieldsSchema } from '@refract/contracts';
import { planAudio } from '../media/av/audio-plan.js';
import { mediaTool } from './media-tool.js';

/**
 * The percentage is the share of the source's own bitrate to keep (compress-rates.ts); a
 * `bitrate` or `vbr` replaces it.
 */
export const compressAudioTool = mediaTool({
  id: 'compressAudio',
  path: '/api/audio/compress-audio',
  summary: "Compress audio to mp3 at a share of the source's own bitrate, or at a chosen one",
  fileField: 'audio',
  fields: compressAudioFieldsSchema,
  service: 'compress-audio',
  target: () => 'mp3',
  name: { suffix: 'compressed', fallback: 'compressed-audio' },
  compress: true,
  plan: ({ percentage, ...fields }, probe) =>
    planAudio({ fields, probe, format: 'mp3', compressPercentage: percentage }),
});
