import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIO_FORMATS, VIDEO_FORMATS } from '@refract/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { registerSubscriber } from '../test/plans.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { ffmpegEncoders } from '../media/av/encoders.js';
import { mediaFormatTable, mediaOutput } from '../media/av/media-formats.js';

/** What each target must contain, as ffprobe names it. */
const EXPECTED_CODEC: Record<string, string> = {
  wav: 'pcm_s16le',
  aiff: 'pcm_s16be',
  pcm: 'pcm_s16le',
  mp3: 'mp3',
  aac: 'aac',
  ogg: 'vorbis',
  flac: 'flac',
  alac: 'alac',
  m4a: 'aac',
  opus: 'opus',
  amr: 'amr_nb',
  mp4: 'h264',
  mkv: 'h264',
  gif: 'gif',
  webm: 'vp9',
  avi: 'mpeg4',
  mov: 'h264',
  flv: 'h264',
};

const writable = new Set(
  mediaFormatTable(await ffmpegEncoders('ffmpeg'))
    .filter((f) => f.available)
    .map((f) => f.format),
);

describe.skipIf(!hasFfmpeg)('audio and video tools', () => {
  let t: TestApp;
  let token: string;
  const wav = media.sineWav(2);
  const video = media.testVideo(2);

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    // Quotas are tested below on a fresh Basic user; this one is unlimited.
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (
    path: string,
    field: string,
    fields: Record<string, string>,
    content?: Buffer,
    as = token,
  ) => postForm(t.app, path, { token: as, fields, file: content && { field, content } });

  /** Writes a result where ffprobe can read it. */
  function saved(payload: Buffer, name: string) {
    const path = join(t.database.options.dataDir, name);
    writeFileSync(path, payload);
    return path;
  }

  /** Within 0.1 s of the 2 s sources (FLV, without AAC's edit lists, runs 2.1 s: the encoder's padding). */
  const expectSameDuration = (seconds: number) =>
    expect(Math.abs(seconds - 2)).toBeLessThanOrEqual(0.1 + 1e-9);

  const jobsLeft = () => leftIn(t.database.options.dataDir, 'jobs');

  // Formats this ffmpeg cannot write are reported and refused: tested below.
  it.each(AUDIO_FORMATS.filter((f) => writable.has(f)))(
    'converts WAV to %s with the same duration',
    async (format) => {
      const res = await post('/api/audio/convertaudio', 'audio', { format }, wav);
      expect(res.statusCode, res.body).toBe(200);
      const extension = mediaOutput(format).extension;
      expect(res.headers['content-disposition']).toBe(`attachment; filename="upload.${extension}"`);
      const raw = format === 'pcm' ? ['-f', 's16le', '-ar', '44100', '-ac', '2'] : [];
      const [stream] = media.probeFile(saved(res.rawPayload, `out.${extension}`), raw);
      expect(stream!.codec).toBe(EXPECTED_CODEC[format]);
      expectSameDuration(stream!.duration);
    },
  );

  it.each(VIDEO_FORMATS)('converts MP4 to %s with the same duration', async (format) => {
    const res = await post('/api/video/convert-video', 'video', { format }, video);
    expect(res.statusCode, res.body).toBe(200);
    const streams = media.probeFile(saved(res.rawPayload, `out.${format}`));
    expect(streams.find((s) => s.codecType === 'video')!.codec).toBe(EXPECTED_CODEC[format]);
    // A GIF holds no sound.
    expect(streams.some((s) => s.codecType === 'audio')).toBe(format !== 'gif');
    expectSameDuration(streams[0]!.duration);
  });

  it('extracts the sound track when a video is converted to an audio format', async () => {
    const res = await post('/api/video/convert-video', 'video', { format: 'mp3' }, video);
    expect(res.statusCode, res.body).toBe(200);
    const streams = media.probeFile(saved(res.rawPayload, 'track.mp3'));
    expect(streams.map((s) => s.codec)).toEqual(['mp3']);
    expectSameDuration(streams[0]!.duration);
  });

  it('reports an output format it cannot write, with the reason, and refuses it', async () => {
    const formats = (await t.app.inject({ url: '/api/formats' })).json().media as {
      format: string;
      available: boolean;
      reason?: string;
    }[];
    expect(formats.map((f) => f.format)).toEqual([...AUDIO_FORMATS, ...VIDEO_FORMATS]);
    for (const f of formats.filter((f) => !f.available)) {
      expect(f.reason).toMatch(/encoder/);
      const res = await post('/api/audio/convertaudio', 'audio', { format: f.format }, wav);
      if (AUDIO_FORMATS.includes(f.format as 'amr')) {
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe('unsupported_output_format');
      }
    }
  });

  it('compresses audio to a smaller mp3 at the chosen share of its own bitrate', async () => {
    const res = await post('/api/audio/compress-audio', 'audio', { percentage: '50' }, wav);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="upload-compressed.mp3"');
    expect(res.rawPayload.length).toBeLessThan(wav.length);
    expect(Number(res.headers['x-original-size'])).toBe(wav.length);
    expect(Number(res.headers['x-result-size'])).toBe(res.rawPayload.length);
    const [stream] = media.probeFile(saved(res.rawPayload, 'small.mp3'));
    expect(stream!.codec).toBe('mp3');
  });

  it('compresses video smaller, and lower percentages smaller still', async () => {
    const big = media.testVideo(2, '320x240');
    const sizes: number[] = [];
    for (const percentage of ['90', '10']) {
      const res = await post('/api/video/compress-video', 'video', { percentage }, big);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="upload-compressed.mp4"',
      );
      sizes.push(res.rawPayload.length);
    }
    expect(sizes[1]).toBeLessThan(sizes[0]!);
    expect(sizes[1]).toBeLessThan(big.length);
  });

  it('says a file is already compact rather than hand back a larger one, and charges nothing', async () => {
    const basic = await registerUser(t.app);
    const res = await post(
      '/api/audio/compress-audio',
      'audio',
      { percentage: '90' },
      media.lowBitrateMp3(),
      basic.token,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('already_compact');
    await expectNothingCharged(basic.token);
  });

  async function expectNothingCharged(as: string) {
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(as) });
    expect(stats.json().imagesProcessed).toBe(0);
  }

  describe('bad input gets a clear code, costs nothing and leaves no files', () => {
    const cases: [string, () => Buffer, number, string][] = [
      ['a text file', media.textFile, 415, 'unsupported_media_type'],
      ['a truncated mp4', media.truncatedMp4, 415, 'unsupported_media_type'],
      ['an HLS playlist', media.hlsPlaylist, 415, 'unsupported_media_type'],
      ['an AVI carrying an HLS playlist', media.aviWithPlaylist, 415, 'unsupported_media_type'],
      ['a zero-length file', () => Buffer.alloc(0), 400, 'no_file'],
    ];
    it.each(cases)('%s', async (_name, make, status, code) => {
      const basic = await registerUser(t.app);
      for (const [path, field] of [
        ['/api/audio/convertaudio', 'audio'],
        ['/api/video/convert-video', 'video'],
        ['/api/audio/compress-audio', 'audio'],
        ['/api/video/compress-video', 'video'],
      ] as const) {
        const res = await post(path, field, {}, make(), basic.token);
        expect(res.statusCode, `${path}: ${res.body}`).toBe(status);
        expect(res.json().code).toBe(code);
      }
      await expectNothingCharged(basic.token);
      expect(jobsLeft()).toEqual([]);
    });

    it.each([
      ['/api/audio/convertaudio', 'audio', { format: 'exe' }],
      ['/api/video/convert-video', 'video', { format: 'exe' }],
      ['/api/audio/compress-audio', 'audio', { percentage: '5' }],
      ['/api/video/compress-video', 'video', { percentage: '95' }],
      ['/api/video/compress-video', 'video', { percentage: 'lots' }],
    ])('%s refuses %o', async (path, field, fields) => {
      const res = await post(path, field, fields, field === 'audio' ? wav : video);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
      expect(jobsLeft()).toEqual([]);
    });

    it('refuses a video target for a file without pictures', async () => {
      const res = await post('/api/video/convert-video', 'video', { format: 'mp4' }, wav);
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toMatch(/no video/);
    });

    it('needs a signed-in user', async () => {
      const res = await post('/api/audio/convertaudio', 'audio', {}, wav, 'not-a-token');
      expect(res.statusCode).toBe(401);
    });
  });
});
