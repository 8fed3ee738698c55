import {
  AUDIO_FORMATS,
  VIDEO_FORMATS,
  type AudioFormat,
  type MediaFormat,
  type MediaFormatInfo,
  type VideoFormat,
} from '@refract/contracts';

export interface MediaOutput {
  kind: 'audio' | 'video';
  /** The download's extension: a player must open it, so alac travels in .m4a. */
  extension: string;
  contentType: string;
  muxer: string;
  /** Encoder arguments; video formats list their audio encoder too. */
  codecArgs: string[];
  /** ffmpeg encoders this format needs; missing ones make it unavailable. */
  encoders: string[];
}

const audio = (
  extension: string,
  contentType: string,
  muxer: string,
  encoder: string,
  args: string[] = [],
): MediaOutput => ({
  kind: 'audio',
  extension,
  contentType,
  muxer,
  codecArgs: ['-c:a', encoder, ...args],
  encoders: [encoder],
});

export const AUDIO_OUTPUTS: Record<AudioFormat, MediaOutput> = {
  wav: audio('wav', 'audio/wav', 'wav', 'pcm_s16le'),
  aiff: audio('aiff', 'audio/aiff', 'aiff', 'pcm_s16be'),
  // Raw samples carry no header, so the rate and layout are fixed and documented: 44.1 kHz stereo.
  pcm: audio('pcm', 'application/octet-stream', 's16le', 'pcm_s16le', ['-ar', '44100', '-ac', '2']),
  mp3: audio('mp3', 'audio/mpeg', 'mp3', 'libmp3lame', ['-b:a', '192k']),
  aac: audio('aac', 'audio/aac', 'adts', 'aac', ['-b:a', '192k']),
  ogg: audio('ogg', 'audio/ogg', 'ogg', 'libvorbis', ['-q:a', '5']),
  flac: audio('flac', 'audio/flac', 'flac', 'flac'),
  alac: audio('m4a', 'audio/mp4', 'ipod', 'alac'),
  m4a: audio('m4a', 'audio/mp4', 'ipod', 'aac', ['-b:a', '192k']),
  // Opus runs at 48 kHz whatever the source.
  opus: audio('opus', 'audio/ogg', 'opus', 'libopus', ['-b:a', '128k', '-ar', '48000']),
  amr: audio('amr', 'audio/amr', 'amr', 'libopencore_amrnb', ['-ar', '8000', '-ac', '1']),
};

const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'];
const AAC = ['-c:a', 'aac', '-b:a', '160k'];

const video = (
  extension: string,
  contentType: string,
  muxer: string,
  codecArgs: string[],
  encoders: string[],
): MediaOutput => ({ kind: 'video', extension, contentType, muxer, codecArgs, encoders });

export const VIDEO_OUTPUTS: Record<VideoFormat, MediaOutput> = {
  mp4: video(
    'mp4',
    'video/mp4',
    'mp4',
    [...H264, ...AAC, '-movflags', '+faststart'],
    ['libx264', 'aac'],
  ),
  mkv: video('mkv', 'video/x-matroska', 'matroska', [...H264, ...AAC], ['libx264', 'aac']),
  // Realtime VP9 keeps webm within reach of the other formats' speed.
  webm: video(
    'webm',
    'video/webm',
    'webm',
    [
      ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
      ...['-b:v', '0', '-crf', '33', '-c:a', 'libopus', '-b:a', '128k', '-ar', '48000'],
    ],
    ['libvpx-vp9', 'libopus'],
  ),
  avi: video(
    'avi',
    'video/x-msvideo',
    'avi',
    ['-c:v', 'mpeg4', '-q:v', '4', '-c:a', 'libmp3lame', '-b:a', '192k'],
    ['mpeg4', 'libmp3lame'],
  ),
  mov: video('mov', 'video/quicktime', 'mov', [...H264, ...AAC], ['libx264', 'aac']),
  flv: video('flv', 'video/x-flv', 'flv', [...H264, ...AAC, '-ar', '44100'], ['libx264', 'aac']),
};

export function mediaOutput(format: MediaFormat): MediaOutput {
  return (
    (AUDIO_OUTPUTS as Record<string, MediaOutput>)[format] ?? VIDEO_OUTPUTS[format as VideoFormat]
  );
}

/** Which targets this server's ffmpeg can write, with the reason when it cannot. */
export function mediaFormatTable(encoders: ReadonlySet<string>): MediaFormatInfo[] {
  const entry = (format: MediaFormat): MediaFormatInfo => {
    const output = mediaOutput(format);
    const missing = output.encoders.filter((name) => !encoders.has(name));
    return missing.length === 0
      ? { format, kind: output.kind, available: true }
      : {
          format,
          kind: output.kind,
          available: false,
          reason:
            encoders.size === 0
              ? 'ffmpeg is not installed on this server'
              : `This server's ffmpeg has no ${missing.join(' or ')} encoder`,
        };
  };
  return [...AUDIO_FORMATS.map(entry), ...VIDEO_FORMATS.map(entry)];
}
