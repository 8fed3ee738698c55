import { convertAudioFieldsSchema } from '@refract/contracts';
import { mediaTool } from './media-tool.js';

export const convertAudioTool = mediaTool({
  id: 'convertAudio',
  path: '/api/audio/convertaudio',
  summary: 'Convert audio to another format',
  fileField: 'audio',
  fields: convertAudioFieldsSchema,
  service: 'convert-audio',
  target: ({ format }) => format,
  name: { fallback: 'converted' },
});
