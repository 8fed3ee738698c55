import { AUDIO_FORMATS, convertVideoFieldsSchema, type AudioFormat } from '@refract/contracts';
import { planAudio } from '../media/av/audio-plan.js';
import { keyframeAt } from '../media/av/keyframes.js';
import { planVideo } from '../media/av/video-plan.js';
import { mediaTool } from './media-tool.js';

const isAudio = (format: string): format is AudioFormat =>
  (AUDIO_FORMATS as readonly string[]).includes(format);

export const convertVideoTool = mediaTool({
  id: 'convertVideo',
  path: '/api/video/convert-video',
  summary:
    'Convert a video (resolution, codec, trim, target size), make a GIF, or extract its sound',
  produces: ['video/*', 'audio/*', 'image/gif'],
  fileField: 'video',
  fields: convertVideoFieldsSchema,
  service: 'convert-video',
  target: ({ format }) => format,
  name: { fallback: 'converted' },
  plan: ({ format, ...fields }, probe, { input, config }) =>
    isAudio(format)
      ? planAudio({ fields, probe, format })
      : planVideo({
          fields,
          probe,
          format,
          maxPixels: config.media.maxPixels,
          keyframeAt: (start) =>
            keyframeAt(
              config.engines.ffprobe,
              input,
              probe.demuxer,
              start,
              1 / (probe.frameRate ?? 25),
            ),
        }),
});
