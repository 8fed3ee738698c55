import { convertVideoFieldsSchema } from '@refract/contracts';
import { mediaTool } from './media-tool.js';

export const convertVideoTool = mediaTool({
  id: 'convertVideo',
  path: '/api/video/convert-video',
  summary: 'Convert a video to another format, or extract its sound',
  produces: ['video/*', 'audio/*'],
  fileField: 'video',
  fields: convertVideoFieldsSchema,
  service: 'convert-video',
  target: ({ format }) => format,
  name: { fallback: 'converted' },
});
