import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasFfmpeg } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { bearer, registerUser } from '../test/accounts.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

interface Stream {
  codec_name: string;
  codec_type: string;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  disposition?: { attached_pic?: number };
}
interface Probe {
  format: { duration: string; bit_rate: string; tags?: Record<string, string> };
  streams: Stream[];
}

/** Every stream and the container as ffprobe reads the result. */
function probe(path: string): Probe {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries'],
    'format=duration,bit_rate:format_tags:stream=codec_name,codec_type,sample_rate,channels,bit_rate,width,height,avg_frame_rate:stream_disposition=attached_pic',
    ...['-of', 'json', path],
  ]);
  return JSON.parse(out.toString()) as Probe;
}
const audioOf = (p: Probe) => p.streams.find((s) => s.codec_type === 'audio')!;
const videoOf = (p: Probe) => p.streams.find((s) => s.codec_type === 'video')!;

describe.skipIf(!hasFfmpeg)('audio and video options, probed in the result', () => {
  let t: TestApp;
  let token: string;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  async function run(
    path: string,
    field: 'audio' | 'video',
    content: Buffer,
    fields: Record<string, string>,
    filename = `in.${field === 'audio' ? 'wav' : 'mp4'}`,
  ) {
    const res = await postForm(t.app, path, { token, fields, file: { field, filename, content } });
    if (res.statusCode !== 200) return { res, probe: undefined };
    const out = join(t.database.options.dataDir, `result-${n++}`);
    writeFileSync(out, res.rawPayload);
    return { res, probe: probe(out) };
  }
  const convertAudio = (content: Buffer, fields: Record<string, string>, name?: string) =>
    run('/api/audio/convertaudio', 'audio', content, fields, name);
  const convertVideo = (content: Buffer, fields: Record<string, string>) =>
    run('/api/video/convert-video', 'video', content, fields);

  const wav = media.sineWav(4);

  it('a chosen constant bitrate lands within 10 % in mp3, aac and opus', async () => {
    for (const format of ['mp3', 'm4a', 'opus']) {
      const { res, probe } = await convertAudio(wav, { format, bitrate: '96' });
      expect(res.statusCode, res.body).toBe(200);
      const rate = Number(audioOf(probe!).bit_rate ?? probe!.format.bit_rate);
      expect(Math.abs(rate - 96_000) / 96_000, format).toBeLessThan(0.1);
    }
  });

  it('sample rate and channels come out exactly as chosen', async () => {
    const { res, probe } = await convertAudio(wav, {
      format: 'mp3',
      sampleRate: '22050',
      channels: 'mono',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(audioOf(probe!).sample_rate).toBe('22050');
    expect(audioOf(probe!).channels).toBe(1);
  });

  it('a trim keeps start to end within 50 ms, with fades and loudness normalised', async () => {
    const { res, probe } = await convertAudio(wav, {
      format: 'flac',
      start: '1.25',
      end: '3',
      normalize: 'true',
      fadeIn: '0.2',
      fadeOut: '0.3',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Math.abs(Number(probe!.format.duration) - 1.75)).toBeLessThan(0.05);
    expect(audioOf(probe!).sample_rate).toBe('44100');
  });

  it('VBR V9 is smaller than V0', async () => {
    const music = media.ordinaryMp3(4);
    const v0 = await convertAudio(music, { format: 'mp3', vbr: '0' }, 'a.mp3');
    const v9 = await convertAudio(music, { format: 'mp3', vbr: '9' }, 'a.mp3');
    expect(v9.res.rawPayload.length).toBeLessThan(v0.res.rawPayload.length / 2);
  });

  it('at the defaults the bitrate follows a lower source: a 64 kbps OGG is not made larger as M4A', async () => {
    const ogg = media.lowBitrateOgg();
    const { res, probe } = await convertAudio(ogg, { format: 'm4a' }, 'song.ogg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.length).toBeLessThanOrEqual(ogg.length * 1.1);
    expect(Number(audioOf(probe!).bit_rate)).toBeLessThan(80_000);
    expect(probe!.format.tags?.title).toBe('Song title');
    expect(probe!.format.tags?.artist).toBe('Some artist');
  });

  it('title, artist and cover image survive mp3 → m4a and → flac', async () => {
    const mp3 = media.taggedMp3WithCover();
    for (const format of ['m4a', 'flac']) {
      const { res, probe } = await convertAudio(mp3, { format }, 'song.mp3');
      expect(res.statusCode, res.body).toBe(200);
      const tags = Object.fromEntries(
        Object.entries(probe!.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      );
      expect(tags.title, format).toBe('Song title');
      expect(tags.album, format).toBe('An album');
      expect(
        probe!.streams.some((s) => s.disposition?.attached_pic === 1),
        format,
      ).toBe(true);
    }
  });

  it('a trim past the end is 422 trim_out_of_range; a bitrate for flac is 400', async () => {
    const past = await convertAudio(wav, { format: 'mp3', start: '10' });
    expect(past.res.statusCode).toBe(422);
    expect(past.res.json().code).toBe('trim_out_of_range');
    const lossless = await convertAudio(wav, { format: 'flac', bitrate: '128' });
    expect(lossless.res.statusCode).toBe(400);
  });

  const clip = media.testVideo(3, '640x360');

  it('a trim that keeps nothing once rounded to the millisecond is 422 trim_out_of_range, not charged', async () => {
    // A user on Basic, whose uses are counted.
    const user = await registerUser(t.app);
    const used = async () =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(user.token) })).json()
        .imagesProcessed as number;
    const ten = media.sineWav(10);
    const cases: [string, Buffer, Record<string, string>][] = [
      // Rounds to 10.000: the file's end.
      ['/api/audio/convertaudio', ten, { format: 'mp3', start: '9.9999999' }],
      ['/api/audio/convertaudio', ten, { format: 'mp3', start: '9.9996', end: '10' }],
      // End rounds to 0.000, the start.
      ['/api/audio/convertaudio', ten, { format: 'mp3', start: '0', end: '0.0001' }],
      ['/api/audio/convertaudio', ten, { format: 'wav', start: '5', end: '5.0004' }],
      ['/api/video/convert-video', clip, { format: 'mp4', start: '2.9999999' }],
    ];
    for (const [path, content, fields] of cases) {
      const field = path.includes('video') ? 'video' : 'audio';
      for (const query of ['', '?async=1']) {
        const res = await postForm(t.app, `${path}${query}`, {
          token: user.token,
          fields,
          file: { field, filename: `in.${field === 'audio' ? 'wav' : 'mp4'}`, content },
        });
        expect(res.statusCode, `${JSON.stringify(fields)}${query}: ${res.body.slice(0, 200)}`).toBe(
          422,
        );
        expect(res.json()).toMatchObject({
          code: 'trim_out_of_range',
          error: expect.stringMatching(/\d s/),
        });
      }
    }
    expect(await used()).toBe(0);
    // A trim of one millisecond keeps something: it runs and is charged.
    const kept = await postForm(t.app, '/api/audio/convertaudio', {
      token: user.token,
      fields: { format: 'wav', start: '5', end: '5.0006' },
      file: { field: 'audio', filename: 'in.wav', content: ten },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await used()).toBe(1);
  });

  it('resolution, frame rate, codec and rotation come out as chosen, never upscaled', async () => {
    const { res, probe } = await convertVideo(clip, {
      format: 'mkv',
      resolution: '240',
      fps: '15',
      codec: 'vp9',
    } as Record<string, string>);
    // 240 is not a choice: 400.
    expect(res.statusCode).toBe(400);
    const small = await convertVideo(clip, {
      format: 'mkv',
      resolution: '360',
      fps: '15',
      codec: 'vp9',
      rotate: '90',
    });
    expect(small.res.statusCode, small.res.body).toBe(200);
    const v = videoOf(small.probe!);
    expect([v.codec_name, v.width, v.height, v.avg_frame_rate]).toEqual(['vp9', 360, 640, '15/1']);
    const kept = await convertVideo(clip, { format: 'mp4', resolution: '1080', codec: 'h265' });
    expect(kept.res.statusCode, kept.res.body).toBe(200);
    expect([videoOf(kept.probe!).codec_name, videoOf(kept.probe!).height]).toEqual(['hevc', 360]);
    void probe;
  });

  it('mute removes the sound track and copies the pictures', async () => {
    const { res, probe } = await convertVideo(clip, { format: 'mp4', audio: 'remove' });
    expect(res.statusCode, res.body).toBe(200);
    expect(probe!.streams.map((s) => s.codec_type)).toEqual(['video']);
  });

  it('a trim on a key frame is a stream copy, shown in the job state, within a frame', async () => {
    // Key frames every second (25 frames): 1 s is one.
    const keyed = media.keyframedVideo(4);
    const res = await postForm(t.app, '/api/video/convert-video?async=1', {
      token,
      fields: { format: 'mp4', start: '1', end: '3' },
      file: { field: 'video', filename: 'clip.mp4', content: keyed },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json() as { jobId: string };
    const job = await vi.waitFor(
      async () => {
        const state = (
          await t.app.inject({
            url: `/api/jobs/${jobId}`,
            headers: { authorization: `Bearer ${token}` },
          })
        ).json();
        if (state.status !== 'done' && state.status !== 'failed') throw new Error(state.status);
        return state;
      },
      // A hang guard: the copy takes a second at rest.
      { timeout: 120_000, interval: 100 },
    );
    expect(job.status, JSON.stringify(job)).toBe('done');
    expect(job.applied.trimBy).toBe('stream copy');
    expect(job.options.start).toBe(1);
    const result = await t.app.inject({
      url: `/api/jobs/${jobId}/result`,
      headers: { authorization: `Bearer ${token}` },
    });
    const out = join(t.database.options.dataDir, 'copied.mp4');
    writeFileSync(out, result.rawPayload);
    expect(Math.abs(Number(probe(out).format.duration) - 2)).toBeLessThanOrEqual(0.05);
  });

  it('a trim off a key frame is re-encoded, exact within a frame', async () => {
    const { res, probe } = await convertVideo(clip, { format: 'mp4', start: '0.52', end: '2.2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(Math.abs(Number(probe!.format.duration) - 1.68)).toBeLessThanOrEqual(0.05);
  });

  it('a target size is never passed, or is refused before the work', async () => {
    const noisy = media.noisyVideo(3);
    const target = 0.4; // MB, against about 1.5 MB
    const { res, probe } = await run('/api/video/compress-video', 'video', noisy, {
      targetSize: String(target),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.length).toBeLessThanOrEqual(target * 1e6);
    expect(videoOf(probe!).codec_name).toBe('h264');
    const tiny = await run('/api/video/compress-video', 'video', noisy, { targetSize: '0.01' });
    expect(tiny.res.statusCode).toBe(422);
    expect(tiny.res.json().code).toBe('target_unreachable');
  });

  it('a GIF of a segment, palette-generated, at most 480 px wide', async () => {
    const { res, probe } = await convertVideo(media.testVideo(3, '640x360'), {
      format: 'gif',
      start: '0.5',
      end: '2',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/gif');
    const v = videoOf(probe!);
    expect([v.codec_name, v.width]).toEqual(['gif', 480]);
  });
});
