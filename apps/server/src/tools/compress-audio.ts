import { compressAudioFieldsSchema } from '@refract/contracts';
import { mediaTool } from './media-tool.js';

/** The percentage is the share of mp3's top bitrate, 320 kbps, to keep (as the earlier app did). */
export const compressAudioTool = mediaTool({
  id: 'compressAudio',
  path: '/api/audio/compress-audio',
  summary: 'Compress audio to mp3 at a share of 320 kbps',
  fileField: 'audio',
  fields: compressAudioFieldsSchema,
  service: 'compress-audio',
  target: () => 'mp3',
  name: { suffix: 'compressed', fallback: 'compressed-audio' },
  compress: ({ percentage }) => [
    ...['-c:a', 'libmp3lame', '-b:a', `${Math.round((320 * percentage) / 100)}k`],
  ],
});
