import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, registerUser } from '../../test/accounts.js';
import { batchEnded, postBatch, unzip } from '../../test/batches.js';
import { describeEachDatabase } from '../../test/databases.js';
import { used } from '../../test/jobs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();

/** Photos of people that ship with the face model's package. */
const demoPhoto = (name: string) =>
  readFileSync(
    join(
      dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
      'demo',
      name,
    ),
  );

describeEachDatabase('batch per-file settings', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const files = async () => [
    { name: 'a.png', content: await png(200, 150) },
    { name: 'b.png', content: await png(200, 150) },
    { name: 'c.png', content: await png(300, 300) },
  ];
  const jobDirs = () => {
    const dir = join(t.database.options.dataDir, 'jobs');
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const shared = { x: '0', y: '0', width: '100', height: '50' };

  it('crops each file with its own frame, the others with the shared one', async () => {
    const { token } = await registerUser(t.app);
    const perFile = JSON.stringify({ 2: { x: 10, y: 20, width: 120, height: 90 } });
    const res = await postBatch(
      t.app,
      '/api/batch/crop',
      token,
      { ...shared, perFile },
      await files(),
    );
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, token, res.json().batchId);
    expect(batch.counts).toMatchObject({ total: 3, done: 3, failed: 0 });
    const zip = await t.app.inject({ url: `/api/batches/${batch.id}/zip`, headers: bearer(token) });
    const sizes = [];
    for (const bytes of (await unzip(zip.rawPayload)).values()) {
      const { width, height } = await sharp(bytes).metadata();
      sizes.push([width, height]);
    }
    expect(sizes).toEqual([
      [100, 50],
      [100, 50],
      [120, 90],
    ]);
    expect(await used(t, token)).toBe(3);
  });

  it('blurs each file where its own areas say (areas are JSON text that the job parses again)', async () => {
    const { token } = await registerUser(t.app);
    const noisy = await sharp({
      create: {
        width: 200,
        height: 150,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const area = (x: number) => JSON.stringify([{ x, y: 10, width: 40, height: 40 }]);
    const res = await postBatch(
      t.app,
      '/api/batch/blur-face',
      token,
      { areas: area(10), perFile: JSON.stringify({ 1: { areas: area(120) } }) },
      ['a', 'b', 'c'].map((n) => ({ name: `${n}.png`, content: noisy })),
    );
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, token, res.json().batchId);
    expect(batch.counts, JSON.stringify(batch.files)).toMatchObject({ done: 3, failed: 0 });
    const zip = await t.app.inject({ url: `/api/batches/${batch.id}/zip`, headers: bearer(token) });
    const [a, b, c] = [...(await unzip(zip.rawPayload)).values()];
    expect(a!.equals(c!)).toBe(true);
    expect(a!.equals(b!)).toBe(false);
  });

  it('with detect=true finds each file’s own faces; a file with none fails alone, uncharged', async () => {
    const { token } = await registerUser(t.app);
    const res = await postBatch(
      t.app,
      '/api/batch/blur-face',
      token,
      { detect: 'true', style: 'box', color: '#ffffff' },
      [
        { name: 'six.jpg', content: demoPhoto('sample6.jpg') },
        { name: 'two.jpg', content: demoPhoto('sample2.jpg') },
        { name: 'blank.png', content: await png(200, 150) },
      ],
    );
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, token, res.json().batchId, 120_000);
    expect(batch.counts, JSON.stringify(batch.files)).toMatchObject({ done: 2, failed: 1 });
    expect(batch.files[2]).toMatchObject({
      status: 'failed',
      charged: false,
      error: { code: 'no_faces_found' },
    });
    expect(await used(t, token)).toBe(2);
    const zip = await t.app.inject({ url: `/api/batches/${batch.id}/zip`, headers: bearer(token) });
    const results = [...(await unzip(zip.rawPayload)).values()];
    expect(results).toHaveLength(2);
    // Each photo has white boxes where its own faces are: more near-white pixels than before.
    for (const [i, name] of ['sample6.jpg', 'sample2.jpg'].entries()) {
      const white = async (image: Buffer) => {
        const { data } = await sharp(image)
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        let count = 0;
        for (let p = 0; p < data.length; p += 3)
          if (data[p]! > 250 && data[p + 1]! > 250 && data[p + 2]! > 250) count += 1;
        return count;
      };
      expect(await white(results[i]!), name).toBeGreaterThan((await white(demoPhoto(name))) + 2000);
    }
  }, 150_000);

  it.each([
    ['not JSON', '{2:', 'validation_failed', /perFile/],
    ['a key that is not an index', '{"first": {"x": 1}}', 'validation_failed', /perFile\.first/],
    ['a bad value', '{"1": {"width": 0}}', 'validation_failed', /perFile\.1: Invalid width/],
    ['an unknown field', '{"1": {"zoom": 2}}', 'unknown_field', /"zoom"/],
    ['a file the batch does not have', '{"3": {"x": 1}}', 'validation_failed', /perFile\.3/],
  ])(
    'refuses per-file settings with %s, charging nothing',
    async (_, perFile, code, message) => {
      const { token } = await registerUser(t.app);
      const before = jobDirs();
      const res = await postBatch(
        t.app,
        '/api/batch/crop',
        token,
        { ...shared, perFile },
        await files(),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(code);
      expect(res.json().error).toMatch(message);
      expect(await used(t, token)).toBe(0);
      expect(jobDirs()).toEqual(before);
    },
    60_000,
  );

  it('refuses an unknown shared field too, as single uploads do', async () => {
    const { token } = await registerUser(t.app);
    const fields = { ...shared, zoom: '2' };
    const res = await postBatch(t.app, '/api/batch/crop', token, fields, await files());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unknown_field', fields: ['zoom'] });
    expect(await used(t, token)).toBe(0);
  });
});
