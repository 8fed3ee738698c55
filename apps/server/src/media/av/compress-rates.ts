import type { MediaProbe } from './probe.js';

interface AudioRule {
  /** Below this a track sounds broken; a source already under it keeps its own rate. */
  floorKbps: number;
  ceilingKbps: number;
  /** When the container names no bitrate. */
  unknownSourceKbps: number;
}

/** MP3 from Compress audio: 48 kbps keeps speech and casual music listenable in stereo. */
export const MP3_RULE: AudioRule = { floorKbps: 48, ceilingKbps: 320, unknownSourceKbps: 320 };
/** AAC inside Compress video: 64 kbps is where AAC stereo stops sounding thin. */
export const VIDEO_AAC_RULE: AudioRule = {
  floorKbps: 64,
  ceilingKbps: 160,
  unknownSourceKbps: 128,
};

/**
 * The bitrate a compressed sound track gets: `percentage` of the source's own (a 128 kbps MP3
 * at 50 % → 64 kbps), never under the floor unless the source already is, never over the
 * ceiling. Taken of the source, not of a fixed 320 kbps, so the default makes any ordinary
 * file smaller.
 */
export function compressedAudioKbps(
  probe: Pick<MediaProbe, 'audioBitRate'>,
  percentage: number,
  rule: AudioRule,
): number {
  const source = probe.audioBitRate ? probe.audioBitRate / 1000 : rule.unknownSourceKbps;
  const wanted = (source * percentage) / 100;
  const floor = Math.min(rule.floorKbps, source);
  return Math.max(8, Math.round(Math.min(rule.ceilingKbps, Math.max(floor, wanted))));
}

/**
 * A picture track's ceiling at the source's own bitrate: the quality setting (CRF) decides, but
 * an already lean video is not given more bits than it had. Nothing when the source's is unknown.
 */
export function videoRateCap(probe: Pick<MediaProbe, 'videoBitRate'>): string[] {
  if (!probe.videoBitRate) return [];
  const kbps = Math.max(100, Math.round(probe.videoBitRate / 1000));
  return ['-maxrate', `${kbps}k`, '-bufsize', `${kbps * 2}k`];
}
