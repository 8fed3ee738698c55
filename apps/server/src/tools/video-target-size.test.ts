import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_CONTAINERS } from '../media/av/media-formats.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import * as media from '../test/media-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const TARGET_MB = 0.3;

/**
 * "At most this size" is at most, in every container and codec the pages offer, from a plain
 * and a fragmented MP4 (screen recorders and many cameras write the latter).
 */
describe.skipIf(!hasFfmpeg)('a target size, met by every codec and container', () => {
  let t: TestApp;
  let token: string;
  const inputs = { plain: media.grainyVideo(2), fragmented: media.grainyVideo(2, true) };
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (path: string, content: Buffer, fields: Record<string, string>) =>
    postForm(t.app, path, {
      token,
      fields: { targetSize: String(TARGET_MB), ...fields },
      file: { field: 'video', filename: 'clip.mp4', content },
    });

  const cases = Object.entries(VIDEO_CONTAINERS).flatMap(([format, container]) =>
    container.codecs.map((codec) => ({ format, codec })),
  );
  it.each(cases)(
    'convert to $format in $codec, from a fragmented MP4',
    async ({ format, codec }) => {
      const fields: Record<string, string> = { format };
      if (codec !== 'mpeg4') fields.codec = codec;
      const res = await post('/api/video/convert-video', inputs.fragmented, fields);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.length).toBeLessThanOrEqual(TARGET_MB * 1e6);
    },
  );

  it.each(['h264', 'h265', 'vp9', 'av1'])('compress in %s, from both MP4s', async (codec) => {
    for (const [kind, input] of Object.entries(inputs)) {
      const res = await post('/api/video/compress-video', input, { codec });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(200);
      expect(res.rawPayload.length, kind).toBeLessThanOrEqual(TARGET_MB * 1e6);
    }
  });
});
