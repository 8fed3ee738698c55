import {
  GIF_MAX_SECONDS,
  type Applied,
  type CompressVideoFields,
  type VideoFormat,
} from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import { resolveTrim, trimArgs, type AvPlan } from './av-plan.js';
import { compressedAudioKbps, VIDEO_AAC_RULE, videoRateCap } from './compress-rates.js';
import { VIDEO_CONTAINERS, VIDEO_ENCODERS } from './media-formats.js';
import type { MediaProbe } from './probe.js';
import { targetRates, type SoundBudget } from './target-size.js';

export type VideoOptions = Omit<CompressVideoFields, 'percentage'>;

/**
 * Compress's percentage as a quality: 90 maps to the codec's CRF less 5 (visually lossless for
 * x264's 18), 10 to its CRF plus 17 (x264's 40), in a straight line between.
 */
export const crfFor = (percentage: number, base = 23) =>
  Math.round(base + 17 - ((percentage - 10) * 22) / 80);

const GIF_WIDTH = 480;
const GIF_FPS = 12;
const GIF_PALETTE =
  'split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5';

const ROTATE: Record<string, string[]> = {
  '0': [],
  '90': ['transpose=1'],
  '180': ['hflip', 'vflip'],
  '270': ['transpose=2'],
};

export interface VideoPlanInput {
  fields: VideoOptions;
  probe: MediaProbe;
  format: VideoFormat;
  compressPercentage?: number;
  maxPixels: number;
  /** Whether the picture track has a key frame at this second (keyframes.ts). */
  keyframeAt(start: number): Promise<boolean>;
}

const bad = (message: string) => new AppError(422, 'unsupported_output_format', message);

/** The picture track's work: copied when only a cut or the sound changes, else encoded. */
export async function planVideo(input: VideoPlanInput): Promise<AvPlan> {
  const { fields, probe, format } = input;
  if (!probe.hasVideo)
    throw new AppError(415, 'unsupported_media_type', 'This file has no video track');
  const trim = resolveTrim(fields, probe);
  const cut = trimArgs(trim);
  if (format === 'gif') return planGif(input, trim.durationSeconds, cut);

  const container = VIDEO_CONTAINERS[format];
  const codec = fields.codec ?? container.codecs[0]!;
  if (!container.codecs.includes(codec))
    throw bad(`A ${format} file cannot hold ${codec}: it takes ${container.codecs.join(', ')}`);
  const applied: Applied = { ...cut.applied };
  const pictureChanges =
    fields.resolution !== 'keep' ||
    fields.fps !== undefined ||
    fields.codec !== undefined ||
    fields.rotate !== '0' ||
    fields.targetSize !== undefined ||
    input.compressPercentage !== undefined;

  const sound = soundPlan(fields, probe, format);
  const copyable = probe.videoCodec !== undefined && copiedCodecFits(probe.videoCodec, format);
  const cheapAsk = trim.trimmed || fields.audio !== 'reencode';
  if (!pictureChanges && cheapAsk && copyable) {
    const frame = 1 / (probe.frameRate ?? 25);
    if (trim.start === 0 || (await input.keyframeAt(trim.start))) {
      applied.video = `copied (${probe.videoCodec})`;
      if (trim.trimmed) applied.trimBy = 'stream copy';
      return {
        seek: cut.seek,
        maps: ['-map', '0:v:0', ...sound.maps],
        filters: [],
        videoCodec: ['-c:v', 'copy'],
        audioCodec: sound.copyArgs,
        tail: [...cut.tail, '-avoid_negative_ts', 'make_zero', ...container.extraArgs],
        durationSeconds: trim.durationSeconds,
        applied: { ...applied, ...sound.applied(undefined) },
      };
    }
    applied.trimBy = `re-encoded: ${trim.start} s is not on a key frame (within ${frame.toFixed(3)} s)`;
  } else if (trim.trimmed) applied.trimBy = 're-encoded';

  const chain = [...ROTATE[fields.rotate]!];
  const size = outputSize(fields, probe, input.maxPixels);
  if (size) {
    chain.push(`scale=${size.width}:${size.height}`);
    applied.resolution = `${size.width}x${size.height}`;
  }
  if (fields.fps !== undefined) {
    if (!probe.frameRate || fields.fps < probe.frameRate - 0.01) {
      chain.push(`fps=${fields.fps}`);
      applied.fps = fields.fps;
    } else applied.fps = `${Math.round(probe.frameRate)} (the source's; never raised)`;
  }
  if (fields.rotate !== '0') applied.rotate = Number(fields.rotate);
  chain.push('scale=trunc(iw/2)*2:trunc(ih/2)*2'); // 4:2:0 needs even sides.

  const encoder = VIDEO_ENCODERS[codec];
  applied.codec = codec;
  let videoCodec: string[];
  let target: AvPlan['target'];
  let audioKbps: number | undefined;
  if (fields.targetSize !== undefined) {
    const bytes = Math.floor(fields.targetSize * 1e6);
    const rates = targetRates(bytes, trim.durationSeconds, sound.budget);
    const sourceKbps = probe.videoBitRate ? Math.round(probe.videoBitRate / 1000) : Infinity;
    const videoKbps = Math.min(rates.videoKbps, sourceKbps);
    audioKbps = rates.audioKbps;
    videoCodec = encoder.args({ kbps: videoKbps });
    target = { bytes, videoKbps, twoPass: encoder.twoPass, frameTiming: container.frameTiming };
    Object.assign(applied, { targetBytes: bytes, videoBitrateKbps: videoKbps });
    applied.passes = encoder.twoPass ? 2 : 1;
  } else if (input.compressPercentage !== undefined) {
    const crf = Math.min(encoder.maxCrf, crfFor(input.compressPercentage, encoder.crf));
    videoCodec = [...encoder.args({ crf }), ...videoRateCap(probe)];
    audioKbps = compressedAudioKbps(probe, input.compressPercentage, VIDEO_AAC_RULE);
    applied.crf = crf;
  } else videoCodec = encoder.args({ crf: encoder.crf });
  if (codec === 'h265' && (format === 'mp4' || format === 'mov')) videoCodec.push('-tag:v', 'hvc1');

  return {
    seek: cut.seek,
    maps: ['-map', '0:v:0', ...sound.maps],
    filters: ['-vf', chain.join(',')],
    videoCodec,
    audioCodec: sound.encodeArgs(audioKbps),
    tail: [...cut.tail, ...container.extraArgs],
    durationSeconds: trim.durationSeconds,
    target,
    applied: { ...applied, ...sound.applied(audioKbps) },
  };
}

/** The sound track: removed, copied where the container takes its codec, or re-encoded. */
function soundPlan(fields: VideoOptions, probe: MediaProbe, format: Exclude<VideoFormat, 'gif'>) {
  const container = VIDEO_CONTAINERS[format];
  const none = !probe.hasAudio || fields.audio === 'remove';
  const copy =
    !none && fields.audio === 'copy' && container.copiesAudio.includes(probe.audioCodec ?? '');
  const sourceKbps = probe.audioBitRate ? Math.round(probe.audioBitRate / 1000) : undefined;
  const budget: SoundBudget = none
    ? { kind: 'none' }
    : copy
      ? { kind: 'copy', kbps: sourceKbps ?? 160 }
      : { kind: 'encode', sourceKbps };
  const encodeArgs = (kbps?: number) =>
    none
      ? ['-an']
      : copy
        ? ['-c:a', 'copy']
        : kbps
          ? withBitrate(container.audioArgs, kbps)
          : container.audioArgs;
  return {
    maps: none ? [] : ['-map', '0:a:0'],
    budget,
    encodeArgs,
    // A stream copy of the pictures copies the sound too where it fits, else encodes it alone.
    copyArgs: none
      ? ['-an']
      : container.copiesAudio.includes(probe.audioCodec ?? '')
        ? ['-c:a', 'copy']
        : encodeArgs(),
    applied: (kbps?: number): Applied => ({
      audio: none
        ? probe.hasAudio
          ? 'removed'
          : 'none in the source'
        : copy
          ? `copied (${probe.audioCodec})`
          : fields.audio === 'copy'
            ? `re-encoded: ${format} cannot hold ${probe.audioCodec}`
            : `re-encoded${kbps ? ` at ${kbps} kbps` : ''}`,
    }),
  };
}

/** ffprobe's names of the codecs each container may receive by copy. */
function copiedCodecFits(codec: string, format: Exclude<VideoFormat, 'gif'>): boolean {
  const names: Record<string, string> = {
    h264: 'h264',
    hevc: 'h265',
    vp9: 'vp9',
    av1: 'av1',
    mpeg4: 'mpeg4',
  };
  const ours = names[codec];
  return (
    ours !== undefined && (VIDEO_CONTAINERS[format].codecs as readonly string[]).includes(ours)
  );
}

/**
 * The size a resolution asks for: its short side at that many pixels (1080p is 1920×1080, or
 * 1080×1920 upright), the shape kept, after any rotation. Never larger than the source unless
 * `upscale`; never past the pixel limit.
 */
function outputSize(fields: VideoOptions, probe: MediaProbe, maxPixels: number) {
  if (fields.resolution === 'keep' || !probe.width || !probe.height) return undefined;
  const turned = fields.rotate === '90' || fields.rotate === '270';
  const [w, h] = turned ? [probe.height, probe.width] : [probe.width, probe.height];
  const short = Number(fields.resolution);
  if (short >= Math.min(w, h) && fields.upscale !== 'true') return undefined;
  const scale = short / Math.min(w, h);
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  const size = { width: even(w * scale), height: even(h * scale) };
  if (size.width * size.height > maxPixels)
    throw new AppError(
      422,
      'media_too_large',
      `${size.width}×${size.height} is over the ${maxPixels}-pixel limit: choose a lower resolution`,
    );
  return size;
}

/** A GIF of the segment: its own palette, 12 fps and 480 px wide unless chosen, no sound. */
function planGif(input: VideoPlanInput, seconds: number, cut: ReturnType<typeof trimArgs>): AvPlan {
  const { fields, probe } = input;
  if (seconds > GIF_MAX_SECONDS)
    throw new AppError(
      422,
      'media_too_large',
      `A GIF holds at most ${GIF_MAX_SECONDS} s: choose a start and an end closer together`,
    );
  const fps = Math.min(fields.fps ?? GIF_FPS, probe.frameRate ?? Infinity);
  const size = outputSize(fields, probe, input.maxPixels);
  const width = size?.width ?? Math.min(GIF_WIDTH, probe.width ?? GIF_WIDTH);
  const chain = [...ROTATE[fields.rotate]!, `fps=${fps}`, `scale=${width}:-2:flags=lanczos`];
  return {
    seek: cut.seek,
    maps: ['-map', '0:v:0'],
    filters: ['-vf', `${chain.join(',')},${GIF_PALETTE}`],
    videoCodec: ['-c:v', 'gif', '-loop', '0'],
    audioCodec: ['-an'],
    tail: cut.tail,
    durationSeconds: seconds,
    applied: {
      ...cut.applied,
      fps: Math.round(fps * 100) / 100,
      width,
      palette: 'from the segment',
    },
  };
}

/** The container's sound arguments with its bitrate replaced (one -b:a, not two). */
function withBitrate(args: string[], kbps: number): string[] {
  const at = args.indexOf('-b:a');
  return at < 0
    ? [...args, '-b:a', `${kbps}k`]
    : args.map((arg, i) => (i === at + 1 ? `${kbps}k` : arg));
}
