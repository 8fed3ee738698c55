import { execFile } from 'node:child_process';
import { AppError } from '../../lib/app-error.js';
import { containsIndirection } from './indirections.js';

export interface MediaProbe {
  /** The demuxer ffprobe chose; ffmpeg is held to it so it cannot pick another. */
  demuxer: string;
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** The first sound track's rate and channels, for the output estimate (output-size.ts). */
  sampleRate?: number;
  channels?: number;
  /** The first sound and picture tracks' own bitrates in bits/s, when the container says. */
  audioBitRate?: number;
  videoBitRate?: number;
  /** The first picture track's coded size, frame rate and codec (the options' starting point). */
  width?: number;
  height?: number;
  frameRate?: number;
  videoCodec?: string;
  audioCodec?: string;
  /** Title, artist and album, from the file or its sound track (Ogg keeps them on the track). */
  tags?: Partial<Record<(typeof KEPT_TAGS)[number], string>>;
  /** The cover image's place among the picture tracks, when the file has one. */
  coverIndex?: number;
}

export const KEPT_TAGS = ['title', 'artist', 'album'] as const;
const MAX_TAG_LENGTH = 1000;

/** What a file may be before any work starts (config.media): frame size and length. */
export interface MediaLimits {
  maxPixels: number;
  maxDurationSeconds: number;
}

/**
 * Containers we read. Anything else (playlists, concat scripts, image sequences, raw data,
 * devices) is refused: those can make ffmpeg open other files or addresses.
 */
const READABLE_DEMUXERS = new Set([
  'mov',
  'mp4',
  'm4a',
  '3gp',
  '3g2',
  'mj2',
  'matroska',
  'webm',
  'avi',
  'flv',
  'wav',
  'w64',
  'aiff',
  'mp3',
  'aac',
  'ogg',
  'flac',
  'amr',
  'amrnb',
  'amrwb',
  'caf',
  'asf',
  'mpeg',
  'mpegts',
  'ac3',
  'eac3',
  'wv',
  'ape',
  'dv',
  'au',
]);

const unsupported = (message: string) => new AppError(415, 'unsupported_media_type', message);

/** libavutil's words when -max_pixels refuses a frame. */
export const PIXELS_REFUSED = /exceeds specified max pixel count/;

class FramesTooLarge extends Error {}

/** ffprobe decodes a few frames too: -max_pixels keeps it from allocating a bomb's frames. */
function ffprobeJson(ffprobePath: string, path: string, maxPixels: number): Promise<string> {
  const args = [
    ...['-v', 'error', '-protocol_whitelist', 'file', '-max_pixels', String(maxPixels)],
    '-show_entries',
    'format=format_name,duration,bit_rate:format_tags=title,artist,album' +
      ':stream=codec_type,codec_name,duration,width,height,avg_frame_rate,sample_rate,channels,bit_rate' +
      ':stream_tags=title,artist,album:stream_disposition=attached_pic',
    ...['-of', 'json', path],
  ];
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath,
      args,
      { timeout: 30_000, maxBuffer: 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(PIXELS_REFUSED.test(stderr) ? new FramesTooLarge() : err);
        else resolve(stdout);
      },
    );
  });
}

type Tags = Record<string, string | undefined>;

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  avg_frame_rate?: string;
  tags?: Tags;
  duration?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  disposition?: { attached_pic?: number };
}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string; tags?: Tags };
  streams?: ProbeStream[];
}

const tooLarge = (message: string) => new AppError(422, 'media_too_large', message);

/**
 * Frame-size and duration bombs: ten 8192×8192 H.264 frames (198 KB) take ffmpeg to 5 GB, and
 * a few KB of silence can declare hours. Every picture track counts but a cover image, and the
 * longest duration declared anywhere. ffmpeg's own `-max_pixels` (transcode.ts) holds a
 * stream that grows after its first frames.
 */
function checkLimits(output: ProbeOutput, limits: MediaLimits) {
  for (const s of output.streams ?? []) {
    // A cover image is one still, never decoded for a sound target (transcode.ts).
    if (s.disposition?.attached_pic) continue;
    const pixels = (s.width ?? 0) * (s.height ?? 0);
    if (s.codec_type === 'video' && pixels > limits.maxPixels)
      throw tooLarge(
        `This video's frames are ${s.width}×${s.height}: at most ${limits.maxPixels} pixels are accepted`,
      );
  }
  const durations = [output.format?.duration, ...(output.streams ?? []).map((s) => s.duration)];
  const longest = Math.max(0, ...durations.map(Number).filter((d) => Number.isFinite(d)));
  if (longest > limits.maxDurationSeconds)
    throw tooLarge(
      `This file runs ${Math.round(longest)} s: at most ${limits.maxDurationSeconds} s are accepted`,
    );
}

/**
 * Reads what a file is before any work is queued or charged: refused with 415 when it is not
 * audio or video we read, or when it points elsewhere; with 422 `media_too_large` past the limits.
 * `scanned` is what the upload's own scan found (plugins/uploads.ts); without it the file is
 * read once more to look for playlist markers.
 */
export async function probeMedia(
  ffprobePath: string,
  path: string,
  limits: MediaLimits,
  scanned?: { containsIndirection: boolean },
): Promise<MediaProbe> {
  if (scanned ? scanned.containsIndirection : await containsIndirection(path))
    throw unsupported('Playlists and files that refer to other files are not accepted');
  let output: ProbeOutput;
  try {
    output = JSON.parse(await ffprobeJson(ffprobePath, path, limits.maxPixels)) as ProbeOutput;
  } catch (err) {
    if (err instanceof FramesTooLarge)
      throw tooLarge(`This video's frames are over ${limits.maxPixels} pixels`);
    throw unsupported('This file is not audio or video that can be read');
  }
  const names = (output.format?.format_name ?? '').split(',');
  const demuxer = names.find((name) => READABLE_DEMUXERS.has(name));
  if (!demuxer) throw unsupported('This file is not audio or video that can be read');
  const streams = output.streams ?? [];
  const hasAudio = streams.some((s) => s.codec_type === 'audio');
  const hasVideo = streams.some((s) => s.codec_type === 'video');
  const durationSeconds = Number(output.format?.duration ?? streams[0]?.duration ?? 0);
  if ((!hasAudio && !hasVideo) || !(durationSeconds > 0))
    throw unsupported('This file has no audio or video to convert');
  checkLimits(output, limits);
  const sound = streams.find((s) => s.codec_type === 'audio');
  const picture = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const sampleRate = Number(sound?.sample_rate) || undefined;
  // An MP3 or other sound-only file often names only the whole file's rate.
  const audioBitRate =
    Number(sound?.bit_rate) || (!hasVideo ? Number(output.format?.bit_rate) : 0) || undefined;
  const pictures = streams.filter((s) => s.codec_type === 'video');
  // A cover past the pixel limit (or whose size ffprobe could not read under it) is left out of
  // results, not refused: ffmpeg would not open it.
  const cover = pictures.findIndex(
    (s) =>
      s.disposition?.attached_pic && s.width && s.height && s.width * s.height <= limits.maxPixels,
  );
  return {
    demuxer,
    durationSeconds,
    hasAudio,
    hasVideo,
    sampleRate,
    channels: sound?.channels,
    audioBitRate,
    videoBitRate: Number(picture?.bit_rate) || undefined,
    width: picture?.width,
    height: picture?.height,
    frameRate: frameRate(picture?.avg_frame_rate),
    videoCodec: picture?.codec_name,
    audioCodec: sound?.codec_name,
    tags: keptTags(output.format?.tags, sound?.tags),
    coverIndex: cover >= 0 ? cover : undefined,
  };
}

/** "30000/1001" → 29.97; "0/0" (unknown) → undefined. */
function frameRate(ratio: string | undefined): number | undefined {
  const [num, den] = (ratio ?? '').split('/').map(Number);
  return num && den ? num / den : undefined;
}

/** Tag names differ in case between containers (TITLE in Vorbis comments). */
function keptTags(...sources: (Tags | undefined)[]): MediaProbe['tags'] {
  const tags: NonNullable<MediaProbe['tags']> = {};
  for (const source of sources)
    for (const [name, value] of Object.entries(source ?? {})) {
      const key = name.toLowerCase() as (typeof KEPT_TAGS)[number];
      // Cut to a sane length: each is one ffmpeg argument later (Linux caps one at 128 KB).
      if ((KEPT_TAGS as readonly string[]).includes(key) && value && !tags[key])
        tags[key] = value.slice(0, MAX_TAG_LENGTH);
    }
  return Object.keys(tags).length > 0 ? tags : undefined;
}
