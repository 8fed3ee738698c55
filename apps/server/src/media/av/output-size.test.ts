import { describe, expect, it } from 'vitest';
import { AUDIO_OUTPUTS, VIDEO_OUTPUTS } from './media-formats.js';
import { estimateOutputBytes } from './output-size.js';
import type { MediaProbe } from './probe.js';

const hour: MediaProbe = {
  demuxer: 'flac',
  durationSeconds: 3600,
  hasAudio: true,
  hasVideo: false,
  sampleRate: 96_000,
  channels: 6,
};

describe('output estimate', () => {
  it('is exact for WAV and AIFF at the source rate and channels, 2 bytes a sample', () => {
    for (const format of ['wav', 'aiff'] as const)
      expect(estimateOutputBytes(hour, AUDIO_OUTPUTS[format].codecArgs)).toBe(
        3600 * 96_000 * 6 * 2,
      );
  });

  it('takes raw PCM at the 44.1 kHz stereo it is written in, whatever the source', () => {
    expect(estimateOutputBytes(hour, AUDIO_OUTPUTS.pcm.codecArgs)).toBe(3600 * 44_100 * 2 * 2);
  });

  it('counts lossy sound at the bitrate asked, and a video by its sound alone', () => {
    expect(estimateOutputBytes(hour, AUDIO_OUTPUTS.mp3.codecArgs)).toBe((3600 * 192_000) / 8);
    const video = { ...hour, hasVideo: true };
    expect(estimateOutputBytes(video, VIDEO_OUTPUTS.mp4.codecArgs)).toBe((3600 * 160_000) / 8);
    expect(estimateOutputBytes({ ...video, hasAudio: false }, VIDEO_OUTPUTS.mp4.codecArgs)).toBe(0);
  });
});
