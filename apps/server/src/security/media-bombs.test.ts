import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { describeEachDatabase } from '../test/databases.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { animatedGif } from './hostile-images.js';

const AUDIO = ['/api/audio/convertaudio', 'audio'] as const;
const VIDEO = ['/api/video/convert-video', 'video'] as const;

/** Made once: the 8192×8192 frames take x264 about a second and a gigabyte to write. */
const fixtures = hasFfmpeg
  ? (() => {
      const huge = media.hugeFramesTs(1);
      return {
        // 7 hours at 1 kHz: a few KB, 4.4 GB as 44.1 kHz stereo PCM (past MEDIA_MAX_OUTPUT_MB).
        sevenHours: media.silentFlac(7 * 3600),
        // 11 hours and a few KB: past the 10-hour limit.
        elevenHours: media.silentFlac(11 * 3600),
        huge,
        growing: media.growingFramesTs(huge),
        noisy: media.noisyVideo(2),
        coveredMp3: media.mp3WithLargeCover(),
      };
    })()
  : undefined;

describe.skipIf(!hasFfmpeg)('audio and video bombs', () => {
  describeEachDatabase('with the default limits', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    const used = async (token: string) =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;

    /** Refused with `code` at upload (asked async, so a queued job would answer 202): nothing charged, no job file left. */
    async function expectRefused(
      [path, field]: readonly [string, string],
      content: Buffer,
      fields: Record<string, string>,
      code: string,
    ) {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, `${path}?async=1`, {
        token,
        fields,
        file: { field, content },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe(code);
      expect(await used(token)).toBe(0);
      expect(leftIn(t.database.options.dataDir, 'jobs')).toEqual([]);
    }

    it('refuses FLAC silence whose PCM output would pass the output limit, before any work', async () => {
      // Refused from the probe: no job ran (expectRefused finds no job's folder left).
      await expectRefused(AUDIO, fixtures!.sevenHours, { format: 'pcm' }, 'output_too_large');
      // The same file to mp3 is 605 MB at 192 kbps: accepted (and not run here).
    });

    it('refuses an 8192×8192 H.264 clip at upload with media_too_large', async () => {
      await expectRefused(VIDEO, fixtures!.huge, { format: 'mp4' }, 'media_too_large');
      await expectRefused(AUDIO, fixtures!.huge, { format: 'mp3' }, 'media_too_large');
    });

    it('refuses a file that declares more hours than the duration limit', async () => {
      await expectRefused(AUDIO, fixtures!.elevenHours, { format: 'mp3' }, 'media_too_large');
    });

    it('still converts an mp3 whose cover image is over the pixel limit', async () => {
      const { token } = await registerUser(t.app);
      for (const format of ['wav', 'mp3']) {
        const res = await postForm(t.app, AUDIO[0], {
          token,
          fields: { format },
          file: { field: AUDIO[1], content: fixtures!.coveredMp3 },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    });

    it('stops a stream whose frames grow past the pixel limit after the probe', async () => {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, VIDEO[0], {
        token,
        fields: { format: 'mp4' },
        file: { field: VIDEO[1], content: fixtures!.growing },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('media_too_large');
      // The runner gives the use back and removes the job's files just after the record ends.
      await expect.poll(() => used(token)).toBe(0);
      await expect.poll(() => leftIn(t.database.options.dataDir, 'jobs')).toEqual([]);
    });
  });

  describeEachDatabase('with a 1 MB output limit', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { MEDIA_MAX_OUTPUT_MB: '1' } });
    });
    afterAll(() => t.close());

    const used = async (token: string) =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;

    it('refuses WAV whose exact size passes the limit, before any work', async () => {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, `${AUDIO[0]}?async=1`, {
        token,
        fields: { format: 'wav' },
        file: { field: AUDIO[1], content: fixtures!.sevenHours },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('output_too_large');
      expect(await used(token)).toBe(0);
      expect(leftIn(t.database.options.dataDir, 'jobs')).toEqual([]);
    });

    it('fails a job whose output passes the byte limit while writing, keeps no file, charges nothing', async () => {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, `${VIDEO[0]}?async=1`, {
        token,
        fields: { format: 'avi' },
        file: { field: VIDEO[1], content: fixtures!.noisy },
      });
      // Accepted: its estimate (no sound) is under the limit, and a use is held.
      expect(res.statusCode, res.body).toBe(202);
      const { jobId } = res.json();
      await t.app.inject({ url: `/api/jobs/${jobId}/events`, headers: bearer(token) });
      const job = (
        await t.app.inject({ url: `/api/jobs/${jobId}`, headers: bearer(token) })
      ).json();
      expect(job).toMatchObject({ status: 'failed', error: { code: 'output_too_large' } });
      const result = await t.app.inject({
        url: `/api/jobs/${jobId}/result`,
        headers: bearer(token),
      });
      expect(result.statusCode).not.toBe(200);
      // The runner gives the use back and removes the job's files just after the record ends.
      await expect.poll(() => used(token)).toBe(0);
      await expect.poll(() => leftIn(t.database.options.dataDir, 'jobs')).toEqual([]);
    });

    it('still converts an ordinary file under the limit', async () => {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, AUDIO[0], {
        token,
        fields: { format: 'wav' },
        file: { field: AUDIO[1], content: media.sineWav(2) },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await used(token)).toBe(1);
    });
  });

  // Image to video (the image convert tool): an animation's frame delays are its length.
  describeEachDatabase('with a 600 s duration limit', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { MEDIA_MAX_DURATION: '600' } });
    });
    afterAll(() => t.close());

    const used = async (token: string) =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;
    const convert = (token: string, format: string, content: Buffer) =>
      postForm(t.app, '/api/convert', {
        token,
        fields: { format },
        file: { field: 'image', filename: 'anim.gif', content },
      });
    /** The length of a result, as ffprobe reads it. */
    const seconds = (result: Buffer) => {
      const path = join(t.database.options.dataDir, `clip-${randomUUID()}`);
      writeFileSync(path, result);
      const out = execFileSync('ffprobe', [
        ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path],
      ]);
      return Number(out.toString().trim());
    };

    it('refuses a GIF whose frame delays run past the limit before making it a video: 422 media_too_large, nothing charged', async () => {
      const { token } = await registerUser(t.app);
      // 9 frames of 655 s: a few hundred bytes that would be a 98-minute clip.
      const hostile = await animatedGif(9, 65_535);
      expect(hostile.length).toBeLessThan(1024);
      // Two frames of 305 s: the frames are within the limit, their sum is not.
      const justOver = await animatedGif(2, 30_500);
      for (const [format, gif] of [
        ['mp4', hostile],
        ['webm', hostile],
        ['mov', hostile],
        ['mp4', justOver],
      ] as const) {
        const res = await convert(token, format, gif);
        // The start of the answer only: a video made by mistake is megabytes.
        expect(res.statusCode, `${format}: ${res.body.slice(0, 200)}`).toBe(422);
        expect(res.json()).toMatchObject({
          code: 'media_too_large',
          error: expect.stringMatching(/600 s/),
        });
      }
      expect(await used(token)).toBe(0);
    });

    it('still makes a video of an animation within the limit, keeping its timing', async () => {
      const { token } = await registerUser(t.app);
      // An ordinary animation: three frames of 0.1 s.
      const ordinary = await convert(token, 'mp4', await animatedGif(3, 10));
      expect(ordinary.statusCode, ordinary.body).toBe(200);
      expect(seconds(ordinary.rawPayload)).toBeCloseTo(0.3, 1);
      // Two frames of 290 s: 580 s, under the 600 s limit (ffmpeg shows the last frame for one
      // frame's time only, so the clip runs from 290 s up to the whole 580 s).
      const long = await convert(token, 'mp4', await animatedGif(2, 29_000));
      expect(long.statusCode, long.body).toBe(200);
      expect(seconds(long.rawPayload)).toBeGreaterThan(289);
      expect(seconds(long.rawPayload)).toBeLessThanOrEqual(580);
      expect(await used(token)).toBe(2);
    });
  });
});
