import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { AppError } from '../../lib/app-error.js';

export interface MediaProbe {
  /** The demuxer ffprobe chose; ffmpeg is held to it so it cannot pick another. */
  demuxer: string;
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
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

/** Markers of playlists and scripts, wherever they hide (an HLS playlist inside an AVI, say). */
const INDIRECTIONS = ['#EXTM3U', '#EXT-X-', 'ffconcat version'].map((s) => Buffer.from(s));
const LONGEST = Math.max(...INDIRECTIONS.map((b) => b.length));

const unsupported = (message: string) => new AppError(415, 'unsupported_media_type', message);

/** Scans the whole file as it streams, keeping an overlap so a marker split across chunks is found. */
async function containsIndirection(path: string): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const window = Buffer.concat([tail, chunk as Buffer]);
    if (INDIRECTIONS.some((marker) => window.includes(marker))) return true;
    tail = window.subarray(Math.max(0, window.length - LONGEST));
  }
  return false;
}

function ffprobeJson(ffprobePath: string, path: string): Promise<string> {
  const args = [
    ...['-v', 'error', '-protocol_whitelist', 'file'],
    ...['-show_entries', 'format=format_name,duration:stream=codec_type,duration'],
    ...['-of', 'json', path],
  ];
  return new Promise((resolve, reject) => {
    execFile(ffprobePath, args, { timeout: 30_000, maxBuffer: 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout);
    });
  });
}

interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; duration?: string }[];
}

/**
 * Reads what a file is before any work is queued or charged: refused with 415 when it is not
 * audio or video we read, or when it points elsewhere.
 */
export async function probeMedia(ffprobePath: string, path: string): Promise<MediaProbe> {
  if (await containsIndirection(path))
    throw unsupported('Playlists and files that refer to other files are not accepted');
  let output: ProbeOutput;
  try {
    output = JSON.parse(await ffprobeJson(ffprobePath, path)) as ProbeOutput;
  } catch {
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
  return { demuxer, durationSeconds, hasAudio, hasVideo };
}
