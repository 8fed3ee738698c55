import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressedAudioKbps, MP3_RULE, VIDEO_AAC_RULE } from '../media/av/compress-rates.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('compression relative to the source bitrate', () => {
  it('takes the share of the source, held between a floor and a ceiling', () => {
    const kbps = (source: number | undefined, percentage: number, rule = MP3_RULE) =>
      compressedAudioKbps({ audioBitRate: source && source * 1000 }, percentage, rule);
    expect(kbps(128, 50)).toBe(64);
    expect(kbps(320, 50)).toBe(160);
    expect(kbps(1411, 50)).toBe(320); // A WAV: the ceiling.
    expect(kbps(128, 10)).toBe(48); // The floor.
    expect(kbps(32, 10)).toBe(32); // Never above a source already under the floor.
    expect(kbps(undefined, 50)).toBe(160); // Unknown: the share of 320, as before.
    expect(kbps(64, 40, VIDEO_AAC_RULE)).toBe(64);
    expect(kbps(256, 40, VIDEO_AAC_RULE)).toBe(102);
  });
});

describe.skipIf(!hasFfmpeg)('compress audio and video at their defaults', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const saved = (bytes: Buffer, name: string) => {
    const path = join(t.database.options.dataDir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('an ordinary 128 kbps MP3 comes back a smaller MP3 named after it', async () => {
    const mp3 = media.ordinaryMp3();
    const res = await postForm(t.app, '/api/audio/compress-audio', {
      token,
      file: { field: 'audio', filename: 'song.mp3', content: mp3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="song-compressed.mp3"');
    expect(res.rawPayload.length).toBeLessThan(mp3.length * 0.7);
    const path = saved(res.rawPayload, 'song-compressed.mp3');
    expect(media.probeFile(path)[0]!.codec).toBe('mp3');
    expect(media.streamBitRate(path, 'a')).toBeLessThanOrEqual(64_000);
  });

  it('a phone video with 64 kbps sound comes back smaller, its sound not raised', async () => {
    const clip = media.phoneVideo();
    const res = await postForm(t.app, '/api/video/compress-video', {
      token,
      file: { field: 'video', filename: 'VID_0001.mp4', content: clip },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="VID_0001-compressed.mp4"',
    );
    expect(res.rawPayload.length).toBeLessThan(clip.length);
    const path = saved(res.rawPayload, 'clip.mp4');
    expect(media.streamBitRate(path, 'a')).toBeLessThanOrEqual(70_000);
  });
});
