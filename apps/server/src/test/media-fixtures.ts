import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
