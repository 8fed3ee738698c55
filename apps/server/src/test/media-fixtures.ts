import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Real audio and video made on the fly with ffmpeg's lavfi sources, good and hostile. */
function generate(extension: string, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'refract-media-'));
  try {
    const out = join(dir, `source.${extension}`);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const sineWav = (seconds = 2) =>
  generate('wav', ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`]);

/** A small, already tightly encoded mp3: compressing it at 90 % could only grow it. */
export const lowBitrateMp3 = () =>
  generate('mp3', [
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
    ...['-ac', '1', '-ar', '22050', '-b:a', '32k'],
  ]);

/** testsrc pictures with a sine sound track. */
export const testVideo = (seconds = 2, size = '160x120', extension = 'mp4') =>
  generate(extension, [
    ...['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
    ],
  ]);

export const textFile = () => Buffer.from('just some words, not a sound in them\n');

export const truncatedMp4 = () => {
  const full = testVideo(2);
  return full.subarray(0, Math.floor(full.length / 3));
};

const PLAYLIST =
  '#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n';

export const hlsPlaylist = () => Buffer.from(PLAYLIST);

/** A real AVI with an HLS playlist hidden in a chunk (the shape of a known ffmpeg file-read attack). */
export const aviWithPlaylist = () => {
  const avi = generate('avi', ['-f', 'lavfi', '-i', 'testsrc=size=64x48:duration=1']);
  const text = Buffer.from(PLAYLIST);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(text.length);
  return Buffer.concat([avi, Buffer.from('JUNK'), size, text]);
};

export interface Probed {
  codec: string;
  codecType: string;
  duration: number;
  formatName: string;
}

/** The first stream of a file as ffprobe reads it; `inputArgs` for raw formats (pcm). */
export function probeFile(path: string, inputArgs: string[] = []): Probed[] {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', ...inputArgs, '-show_entries'],
    ...['format=format_name,duration:stream=codec_name,codec_type', '-of', 'json', path],
  ]);
  const json = JSON.parse(out.toString()) as {
    format: { format_name: string; duration: string };
    streams: { codec_name: string; codec_type: string }[];
  };
  return json.streams.map((s) => ({
    codec: s.codec_name,
    codecType: s.codec_type,
    duration: Number(json.format.duration),
    formatName: json.format.format_name,
  }));
}

/**
 * Silence in FLAC at 1 kHz mono in FLAC's largest frames: hours in a few KB, made in well under
 * a second (4 hours: 7 KB), the shape of the reported PCM bomb.
 */
export const silentFlac = (seconds: number) =>
  generate('flac', [
    ...['-f', 'lavfi', '-i', 'anullsrc=r=1000:cl=mono:nb_samples=65535', '-t', String(seconds)],
    ...['-c:a', 'flac', '-frame_size', '65535'],
  ]);

/** Ten black 8192×8192 H.264 frames in MPEG-TS starting at `offset` s: about 200 KB. */
export const hugeFramesTs = (offset = 0) =>
  generate('ts', [
    ...['-f', 'lavfi', '-i', 'color=black:size=8192x8192:rate=10:duration=1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-threads', '1'],
    ...['-pix_fmt', 'yuv420p', '-output_ts_offset', String(offset), '-f', 'mpegts'],
  ]);

/** A second of 160×120 H.264, then the 8192×8192 frames: ffprobe reports only the first size. */
export const growingFramesTs = (huge = hugeFramesTs(1)) =>
  Buffer.concat([
    generate('ts', [
      ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mpegts'],
    ]),
    huge,
  ]);

/**
 * Noise in H.264 at CRF 35 (about 1 MB for 2 s), which our AVI target (MPEG-4 part 2) writes
 * several times larger, while the output estimate counts only its sound (output-size.ts).
 */
export const noisyVideo = (seconds = 2) =>
  generate('mp4', [
    ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`],
    ...['-vf', 'noise=alls=100:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35'],
    ...['-pix_fmt', 'yuv420p'],
  ]);

/**
 * A moving picture with light grain and a sound track, about 2 MB for 3 s; `fragmented` writes it
 * as screen recorders and many cameras do (`frag_keyframe+empty_moov`: no sample table up front,
 * the frames in fragments).
 */
export const grainyVideo = (seconds = 3, fragmented = false) =>
  generate('mp4', [
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-vf', 'noise=alls=12:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '26'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ...(fragmented ? ['-movflags', 'frag_keyframe+empty_moov'] : []),
  ]);

/** A real shape: an mp3 whose cover image (5000×5000 JPEG) is over the video pixel limit. */
export const mp3WithLargeCover = () => {
  const cover = generate('jpg', [
    ...['-f', 'lavfi', '-i', 'color=red:size=5000x5000', '-frames:v', '1'],
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'refract-media-'));
  try {
    writeFileSync(join(dir, 'cover.jpg'), cover);
    return generate('mp3', [
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-i', join(dir, 'cover.jpg')],
      ...['-map', '0', '-map', '1', '-c:a', 'libmp3lame', '-c:v', 'copy'],
      ...['-disposition:v', 'attached_pic'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The most common file there is: a 128 kbps stereo MP3 (pink noise under a tone, music-like). */
export const ordinaryMp3 = (seconds = 5) =>
  generate('mp3', [
    ...['-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=pink:a=0.2`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...['-filter_complex', 'amix=inputs=2,aformat=channel_layouts=stereo'],
    ...['-c:a', 'libmp3lame', '-b:a', '128k'],
  ]);

/** A phone-like clip: 720p at 30 fps and 6 Mbps, with a 64 kbps AAC sound track. */
export const phoneVideo = (seconds = 3) =>
  generate('mp4', [
    ...['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=pink:a=0.2`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '2', '-shortest'],
  ]);

/** A track's own bitrate in bits/s, as ffprobe reads it. */
export function streamBitRate(path: string, type: 'a' | 'v'): number {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', `${type}:0`, '-show_entries', 'stream=bit_rate'],
    ...['-of', 'csv=p=0', path],
  ]);
  return Number(out.toString().trim());
}

/** A 64 kbps Vorbis OGG with its tags on the track, as Ogg keeps them. */
export const lowBitrateOgg = (seconds = 4) =>
  generate('ogg', [
    ...['-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=pink:a=0.2`],
    ...['-c:a', 'libvorbis', '-b:a', '64k', '-ac', '2'],
    ...['-metadata', 'title=Song title', '-metadata', 'artist=Some artist'],
  ]);

/** An MP3 with title, artist, album and a small cover image. */
export const taggedMp3WithCover = () => {
  const cover = generate('jpg', ['-f', 'lavfi', '-i', 'color=red:size=64x64', '-frames:v', '1']);
  const dir = mkdtempSync(join(tmpdir(), 'refract-media-'));
  try {
    writeFileSync(join(dir, 'cover.jpg'), cover);
    return generate('mp3', [
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-i', join(dir, 'cover.jpg')],
      ...['-map', '0', '-map', '1', '-c:a', 'libmp3lame', '-c:v', 'copy'],
      ...['-disposition:v', 'attached_pic', '-metadata', 'title=Song title'],
      ...['-metadata', 'artist=Some artist', '-metadata', 'album=An album'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** H.264 with a key frame every second (25 frames) and AAC sound. */
export const keyframedVideo = (seconds = 4) =>
  generate('mp4', [
    ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-keyint_min', '25'],
    ...['-sc_threshold', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
  ]);
