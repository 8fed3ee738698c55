import { convertAudioFieldsSchema } from '@refract/contracts';
import { planAudio } from '../media/av/audio-plan.js';
import { mediaTool } from './media-tool.js';

export const convertAudioTool = mediaTool({
  id: 'convertAudio',
  path: '/api/audio/convertaudio',
  summary: 'Convert audio to another format, with bitrate, sample rate, channels, trim and fades',
  fileField: 'audio',
  fields: convertAudioFieldsSchema,
  service: 'convert-audio',
  target: ({ format }) => format,
  name: { fallback: 'converted' },
  plan: ({ format, ...fields }, probe) => planAudio({ fields, probe, format }),
});
