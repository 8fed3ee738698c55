import { compressAudioFieldsSchema } from '@refract/contracts';
import { compressedAudioKbps, MP3_RULE } from '../media/av/compress-rates.js';
import { mediaTool } from './media-tool.js';

/** The percentage is the share of the source's own bitrate to keep (compress-rates.ts). */
export const compressAudioTool = mediaTool({
  id: 'compressAudio',
  path: '/api/audio/compress-audio',
  summary: "Compress audio to mp3 at a share of the source's own bitrate",
  fileField: 'audio',
  fields: compressAudioFieldsSchema,
  service: 'compress-audio',
  target: () => 'mp3',
  name: { suffix: 'compressed', fallback: 'compressed-audio' },
  compress: ({ percentage }, probe) => [
    ...['-c:a', 'libmp3lame', '-b:a', `${compressedAudioKbps(probe, percentage, MP3_RULE)}k`],
  ],
});
