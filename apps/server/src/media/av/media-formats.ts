import {
  AUDIO_FORMATS,
  VIDEO_FORMATS,
  type AudioFormat,
  type MediaFormat,
  type MediaFormatInfo,
  type VideoCodec,
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

/** A picture encoder: its arguments at a constant quality (CRF) or at a bitrate (target size). */
export interface VideoEncoder {
  encoder: string;
  /** The quality the container's default uses; Compress maps its percentage around it. */
  crf: number;
  maxCrf: number;
  args(rate: { crf: number } | { kbps: number }): string[];
  /**
   * Two-pass rate control for a target size: none for SVT-AV1 (Debian's ffmpeg 5.1 has none) and
   * realtime VP9 (see below).
   */
  twoPass?: 'pass' | 'x265';
}

const rate = (r: { crf: number } | { kbps: number }) =>
  'crf' in r ? ['-crf', String(r.crf)] : ['-b:v', `${r.kbps}k`];

export const VIDEO_ENCODERS: Record<VideoCodec | 'mpeg4', VideoEncoder> = {
  h264: {
    encoder: 'libx264',
    crf: 23,
    maxCrf: 51,
    twoPass: 'pass',
    args: (r) => ['-c:v', 'libx264', '-preset', 'veryfast', ...rate(r), '-pix_fmt', 'yuv420p'],
  },
  h265: {
    encoder: 'libx265',
    crf: 28,
    maxCrf: 51,
    twoPass: 'x265',
    args: (r) => ['-c:v', 'libx265', '-preset', 'veryfast', ...rate(r), '-pix_fmt', 'yuv420p'],
  },
  // Realtime VP9 keeps webm within reach of the other formats' speed. No two passes: libvpx
  // writes no first-pass statistics at the realtime deadline, and the "good" one that does is
  // about 10× slower; a target size is met by re-encoding at a corrected bitrate instead.
  vp9: {
    encoder: 'libvpx-vp9',
    crf: 33,
    maxCrf: 63,
    args: (r) => [
      ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
      // At a bitrate, constant: realtime VP9 asked only for an average overshot it by 2×.
      ...('crf' in r
        ? ['-b:v', '0', '-crf', String(r.crf)]
        : ['-b:v', `${r.kbps}k`, '-minrate', `${r.kbps}k`, '-maxrate', `${r.kbps}k`]),
    ],
  },
  av1: {
    encoder: 'libsvtav1',
    crf: 35,
    maxCrf: 63,
    args: (r) => ['-c:v', 'libsvtav1', '-preset', '10', ...rate(r), '-pix_fmt', 'yuv420p'],
  },
  // AVI's MPEG-4 part 2: -q:v 4 is its everyday quality.
  mpeg4: {
    encoder: 'mpeg4',
    crf: 4,
    maxCrf: 31,
    twoPass: 'pass',
    args: (r) => [
      '-c:v',
      'mpeg4',
      ...('crf' in r ? ['-q:v', String(r.crf)] : ['-b:v', `${r.kbps}k`]),
    ],
  },
};

/** What each video container holds: its codecs (the first is its default) and its sound. */
export interface VideoContainer {
  codecs: readonly (VideoCodec | 'mpeg4')[];
  /** Sound codecs (ffprobe's names) a stream copy may keep. */
  copiesAudio: readonly string[];
  audioArgs: string[];
  audioEncoder: string;
  extraArgs: string[];
  /**
   * How ffmpeg times frames into this muxer when not told (its `-fps_mode auto`): constant rate
   * (frames repeated or dropped to fill the timeline) or as they come. Both passes of a target
   * size must see the same frames: the first pass's null muxer would take them as they come, and
   * x264 then met more frames in its second pass than in its first (a fragmented MP4) and failed.
   */
  frameTiming: 'cfr' | 'vfr';
}

const AAC = ['-c:a', 'aac', '-b:a', '160k'];
const FASTSTART = ['-movflags', '+faststart'];

export const VIDEO_CONTAINERS: Record<Exclude<VideoFormat, 'gif'>, VideoContainer> = {
  mp4: {
    codecs: ['h264', 'h265', 'vp9', 'av1'],
    copiesAudio: ['aac', 'mp3', 'alac', 'opus', 'ac3'],
    audioArgs: AAC,
    audioEncoder: 'aac',
    extraArgs: FASTSTART,
    frameTiming: 'cfr',
  },
  mkv: {
    codecs: ['h264', 'h265', 'vp9', 'av1'],
    copiesAudio: ['aac', 'mp3', 'opus', 'vorbis', 'flac', 'ac3', 'eac3', 'alac', 'pcm_s16le'],
    audioArgs: AAC,
    audioEncoder: 'aac',
    extraArgs: [],
    frameTiming: 'vfr',
  },
  webm: {
    codecs: ['vp9', 'av1'],
    copiesAudio: ['opus', 'vorbis'],
    audioArgs: ['-c:a', 'libopus', '-b:a', '128k', '-ar', '48000'],
    audioEncoder: 'libopus',
    extraArgs: [],
    frameTiming: 'vfr',
  },
  avi: {
    codecs: ['mpeg4'],
    copiesAudio: ['mp3', 'ac3', 'pcm_s16le'],
    audioArgs: ['-c:a', 'libmp3lame', '-b:a', '192k'],
    audioEncoder: 'libmp3lame',
    extraArgs: [],
    frameTiming: 'cfr',
  },
  mov: {
    codecs: ['h264', 'h265'],
    copiesAudio: ['aac', 'mp3', 'alac', 'pcm_s16le'],
    audioArgs: AAC,
    audioEncoder: 'aac',
    extraArgs: FASTSTART,
    frameTiming: 'cfr',
  },
  flv: {
    codecs: ['h264'],
    copiesAudio: ['aac', 'mp3'],
    audioArgs: [...AAC, '-ar', '44100'],
    audioEncoder: 'aac',
    extraArgs: [],
    frameTiming: 'vfr',
  },
};

const video = (format: Exclude<VideoFormat, 'gif'>, contentType: string, muxer: string) => {
  const container = VIDEO_CONTAINERS[format];
  const encoder = VIDEO_ENCODERS[container.codecs[0]!];
  return {
    kind: 'video',
    extension: format,
    contentType,
    muxer,
    codecArgs: [
      ...encoder.args({ crf: encoder.crf }),
      ...container.audioArgs,
      ...container.extraArgs,
    ],
    encoders: [encoder.encoder, container.audioEncoder],
  } satisfies MediaOutput;
};

export const VIDEO_OUTPUTS: Record<VideoFormat, MediaOutput> = {
  mp4: video('mp4', 'video/mp4', 'mp4'),
  mkv: video('mkv', 'video/x-matroska', 'matroska'),
  webm: video('webm', 'video/webm', 'webm'),
  avi: video('avi', 'video/x-msvideo', 'avi'),
  mov: video('mov', 'video/quicktime', 'mov'),
  flv: video('flv', 'video/x-flv', 'flv'),
  // Pictures only, through a palette made from the segment itself (video-plan.ts).
  gif: {
    kind: 'video',
    extension: 'gif',
    contentType: 'image/gif',
    muxer: 'gif',
    codecArgs: ['-an'],
    encoders: ['gif'],
  },
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
