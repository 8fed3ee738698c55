import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { detectFacesResponseSchema } from '@refract/contracts';
import { groupPhoto, score, smallFaces } from '../../../../../bench/fixtures/faces/set.mjs';
import { mergeDetections, MIN_CONFIDENCE } from '../../media/faces/face-detector.js';
import { bearer, registerUser } from '../../test/accounts.js';
import * as fixtures from '../../test/image-fixtures.js';
import { postForm } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A photo of people that ships with the model's package (its demo images). */
const demo = (name: string) =>
  readFileSync(
    join(
      dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
      'demo',
      name,
    ),
  );
const samplePhoto = demo('sample6.jpg');

describe('POST /api/detect-faces', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerUser(t.app)).token;
  });
  afterAll(() => t.close());

  const post = (content?: Buffer, headers = bearer(token)) =>
    postForm(t.app, '/api/detect-faces', {
      headers,
      file: content && { field: 'image', filename: 'photo.jpg', content },
    });
  const stats = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json();
  const tmpIsEmpty = () => {
    const dir = join(t.database.options.dataDir, 'tmp');
    return !existsSync(dir) || readdirSync(dir).length === 0;
  };

  it('finds the faces in a photo, in source pixels, and charges nothing', async () => {
    const before = await stats();
    const res = await post(samplePhoto);
    expect(res.statusCode, res.body).toBe(200);
    const { faces } = detectFacesResponseSchema.parse(res.json());
    const { width, height } = await sharp(samplePhoto).metadata();
    expect(faces.length).toBeGreaterThanOrEqual(3);
    for (const face of faces) {
      expect(face.score).toBeGreaterThanOrEqual(MIN_CONFIDENCE);
      expect(face.width).toBeGreaterThan(50);
      expect(face.x + face.width).toBeLessThanOrEqual(width);
      expect(face.y + face.height).toBeLessThanOrEqual(height);
    }
    expect(await stats()).toEqual(before);
    await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
  });

  // 27 inferences of the model: about 2 s at rest, 13 s on the runtime before; a hang guard of 10 minutes.
  it(
    'finds every face marked by hand in the face set’s 12 MP group photo, one box a face',
    { timeout: 600_000 },
    async () => {
      const group = await groupPhoto();
      const res = await post(group.image);
      expect(res.statusCode, res.body).toBe(200);
      const { faces } = detectFacesResponseSchema.parse(res.json());
      const { missed, falseBoxes } = score(group.faces, faces);
      expect(group.faces).toHaveLength(22);
      expect(missed).toEqual([]);
      expect(falseBoxes).toEqual([]);
      // One box per face: none lies mostly inside another.
      expect(mergeDetections(faces)).toHaveLength(faces.length);
    },
  );

  it(
    'finds every face of 24–41 px marked by hand in the face set’s 1920 × 1080 photo of small faces',
    { timeout: 600_000 },
    async () => {
      const small = await smallFaces();
      const res = await post(small.image);
      expect(res.statusCode, res.body).toBe(200);
      const { faces } = detectFacesResponseSchema.parse(res.json());
      const { missed, falseBoxes } = score(small.faces, faces);
      expect(small.faces).toHaveLength(22);
      expect(missed).toEqual([]);
      // Faces this small, the model also takes one patch of the background for a face.
      expect(falseBoxes.length).toBeLessThanOrEqual(1);
    },
  );

  it('finds none in a blank image', async () => {
    const blank = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#9a9a9a' },
    })
      .jpeg()
      .toBuffer();
    const res = await post(blank);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ faces: [] });
  });

  it.each([
    ['no file', undefined, 400, 'no_file'],
    ['a text file', fixtures.textAsPng(), 415, 'unsupported_media_type'],
    ['a damaged JPEG', 'truncated', 422, 'invalid_image'],
    ['a file over 10 MB', Buffer.alloc(10 * 1024 * 1024 + 10, 1), 413, 'file_too_large'],
  ] as const)('answers %s with %i %s', async (_, content, status, code) => {
    const file = content === 'truncated' ? await fixtures.truncatedJpeg() : content;
    const res = await post(file);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
    await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
  });

  it('is for signed-in users only', async () => {
    const res = await post(samplePhoto, {} as ReturnType<typeof bearer>);
    expect(res.statusCode).toBe(401);
  });
});
