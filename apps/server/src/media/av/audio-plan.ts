import type { Applied, AudioFormat, ConvertAudioFields } from '@refract/contracts';
import { trimArgs, resolveTrim, type AvPlan } from './av-plan.js';
import { compressedAudioKbps, MP3_RULE } from './compress-rates.js';
import { AUDIO_OUTPUTS } from './media-formats.js';
import type { MediaProbe } from './probe.js';

export type AudioOptions = Omit<ConvertAudioFields, 'format'>;

interface LossyCodec {
  /** The format's own bitrate when the source does not set a lower one. */
  defaultKbps: number;
  floorKbps: number;
  /** Arguments for a constant bitrate. */
  cbr(kbps: number): string[];
  /** Arguments for variable quality V0 (best) to V9 (smallest), LAME's scale. */
  vbr(level: number): string[];
}

/** Opus has no quality scale of its own: its VBR aims at a bitrate, these per V level. */
const OPUS_VBR_KBPS = [192, 160, 128, 112, 96, 80, 64, 48, 40, 32];

const LOSSY: Partial<Record<AudioFormat, LossyCodec>> = {
  mp3: {
    defaultKbps: 192,
    floorKbps: 32,
    cbr: (kbps) => ['-b:a', `${kbps}k`],
    vbr: (level) => ['-q:a', String(level)],
  },
  // ffmpeg's AAC encoder: -q:a 2 (rich) down to 0.2 (small).
  aac: {
    defaultKbps: 192,
    floorKbps: 32,
    cbr: (kbps) => ['-b:a', `${kbps}k`],
    vbr: (level) => ['-q:a', String(Math.round((2 - level * 0.2) * 10) / 10)],
  },
  // Vorbis quality runs 10 (best) to -1: V0 → 9, V9 → 0.
  ogg: {
    defaultKbps: 160,
    floorKbps: 48,
    cbr: (kbps) => ['-b:a', `${kbps}k`, '-minrate', `${kbps}k`, '-maxrate', `${kbps}k`],
    vbr: (level) => ['-q:a', String(9 - level)],
  },
  opus: {
    defaultKbps: 128,
    floorKbps: 16,
    cbr: (kbps) => ['-b:a', `${kbps}k`, '-vbr', 'off'],
    vbr: (level) => ['-b:a', `${OPUS_VBR_KBPS[level]}k`, '-vbr', 'on'],
  },
};
LOSSY.m4a = LOSSY.aac;

/** Targets that hold a cover image (a picture track marked attached_pic). */
const HOLDS_COVER = new Set<AudioFormat>(['mp3', 'flac', 'alac', 'm4a']);
/** Targets whose headers hold no title or artist. */
const NO_TAGS = new Set<AudioFormat>(['aac', 'pcm', 'amr']);

/** EBU R128 at the level streaming services use; loudnorm works at 192 kHz, so -ar follows. */
const LOUDNORM = 'loudnorm=I=-16:TP=-1.5:LRA=11';

/**
 * The sound track's work. The bitrate, when neither `bitrate` nor `vbr` is given, follows the
 * source: the format's own default, or the source's bitrate when lower, so a 96 kbps OGG does
 * not become a 192 kbps M4A. Compress takes its percentage of the source instead.
 */
export function planAudio(input: {
  fields: AudioOptions;
  probe: MediaProbe;
  format: AudioFormat;
  compressPercentage?: number;
}): AvPlan {
  const { fields, probe, format } = input;
  const output = AUDIO_OUTPUTS[format];
  const trim = resolveTrim(fields, probe);
  const cut = trimArgs(trim);
  const applied: Applied = { ...cut.applied };
  const codec = [...output.codecArgs];

  const lossy = LOSSY[format];
  if (lossy) {
    codec.splice(2); // -c:a <encoder>; the format's own rate arguments are replaced below.
    if (fields.vbr !== undefined) {
      codec.push(...lossy.vbr(fields.vbr));
      applied.vbr = `V${fields.vbr}`;
    } else {
      const { kbps, from } = chosenKbps(fields.bitrate, lossy, probe, input.compressPercentage);
      codec.push(...lossy.cbr(kbps));
      Object.assign(applied, { bitrateKbps: kbps, bitrateFrom: from });
    }
    if (format === 'opus') codec.push('-ar', '48000');
  }
  if (fields.sampleRate) codec.push('-ar', String(fields.sampleRate));
  if (fields.channels) codec.push('-ac', fields.channels === 'mono' ? '1' : '2');

  const chain: string[] = [];
  if (fields.normalize === 'true') {
    chain.push(LOUDNORM);
    applied.normalized = 'EBU R128, -16 LUFS';
    // Back to the source's rate (loudnorm leaves 192 kHz), within what every encoder takes.
    if (!codec.includes('-ar'))
      codec.push('-ar', String(Math.min(probe.sampleRate ?? 48_000, 48_000)));
  }
  const length = trim.durationSeconds;
  const fadeIn = Math.min(fields.fadeIn ?? 0, length);
  const fadeOut = Math.min(fields.fadeOut ?? 0, length);
  if (fadeIn > 0) chain.push(`afade=t=in:st=0:d=${fadeIn}`);
  if (fadeOut > 0) chain.push(`afade=t=out:st=${Math.max(0, length - fadeOut)}:d=${fadeOut}`);
  if (fadeIn > 0) applied.fadeIn = fadeIn;
  if (fadeOut > 0) applied.fadeOut = fadeOut;

  const sampleRate = argument(codec, '-ar') ?? probe.sampleRate;
  if (sampleRate) applied.sampleRate = Number(sampleRate);
  const channels = argument(codec, '-ac') ?? probe.channels;
  if (channels) applied.channels = Number(channels) === 1 ? 'mono' : 'stereo';

  const cover = HOLDS_COVER.has(format) ? probe.coverIndex : undefined;
  const tags = NO_TAGS.has(format) ? [] : Object.entries(probe.tags ?? {});
  if (cover !== undefined) applied.coverKept = true;
  if (tags.length > 0) applied.tagsKept = tags.map(([name]) => name).join(', ');
  return {
    seek: cut.seek,
    maps: [
      ...['-map', '0:a:0'],
      ...(cover === undefined
        ? ['-vn']
        : ['-map', `0:v:${cover}`, '-c:v', 'copy', '-disposition:v:0', 'attached_pic']),
    ],
    filters: chain.length > 0 ? ['-af', chain.join(',')] : [],
    videoCodec: [],
    audioCodec: codec,
    tail: [...cut.tail, ...tags.flatMap(([name, value]) => ['-metadata', `${name}=${value}`])],
    durationSeconds: length,
    applied,
  };
}

function chosenKbps(
  bitrate: number | undefined,
  codec: LossyCodec,
  probe: MediaProbe,
  compressPercentage: number | undefined,
): { kbps: number; from: string } {
  if (bitrate !== undefined) return { kbps: bitrate, from: 'chosen' };
  if (compressPercentage !== undefined)
    return {
      kbps: compressedAudioKbps(probe, compressPercentage, MP3_RULE),
      from: `${compressPercentage} % of the source`,
    };
  const source = probe.audioBitRate ? Math.round(probe.audioBitRate / 1000) : undefined;
  if (source === undefined || source >= codec.defaultKbps)
    return { kbps: codec.defaultKbps, from: 'format default' };
  return { kbps: Math.max(codec.floorKbps, source), from: 'source' };
}

function argument(args: readonly string[], name: string): string | undefined {
  const at = args.lastIndexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}
