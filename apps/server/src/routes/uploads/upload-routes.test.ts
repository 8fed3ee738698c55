import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { postBatch } from '../../test/batches.js';
import { describeEachDatabase } from '../../test/databases.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { until, used } from '../../test/jobs.js';
import { sineWav } from '../../test/media-fixtures.js';
import { leftIn, postForm } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  createUpload,
  sendBytes,
  sendBytesThenCut,
  uploadId,
  uploadOffset,
} from '../../test/tus.js';

const song = hasFfmpeg ? sineWav(20) : Buffer.alloc(0);
const CONVERT_AUDIO = '/api/audio/convertaudio';

/** The audio tool's form: the file itself, or the id of a finished upload. */
const convert = (t: TestApp, token: string, source: { file: Buffer } | { upload: string }) =>
  postForm(t.app, CONVERT_AUDIO, {
    token,
    fields: { format: 'mp3', ...('upload' in source ? { upload: source.upload } : {}) },
    file:
      'file' in source ? { field: 'audio', filename: 'song.wav', content: source.file } : undefined,
  });

/** Sends a whole file as one resumable upload; its id. */
async function uploadWhole(t: TestApp, token: string, bytes: Buffer) {
  const created = await createUpload(t.app, token, bytes.length);
  expect(created.statusCode, created.body).toBe(201);
  const id = uploadId(created.headers.location);
  const sent = await sendBytes(t.app, token, id, 0, bytes);
  expect(sent.statusCode, sent.body).toBe(204);
  return id;
}

const uploadsDir = (t: TestApp) => join(t.database.options.dataDir, 'uploads');
/** The files of the resumable uploads kept now. */
const uploadFiles = (t: TestApp) => leftIn(t.database.options.dataDir, 'uploads');

describeEachDatabase('file sizes by plan', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await adminToken(t.app);
  });
  afterAll(() => t.close());

  /** Basic's audio and video size, set by an admin through the API. */
  async function setBasicMediaSize(bytes: number) {
    const plans = (await t.app.inject({ url: '/api/subscriptions/plans' })).json();
    const basic = plans[0];
    return t.app.inject({
      method: 'PUT',
      url: `/api/subscriptions/plans/${basic._id}`,
      headers: bearer(admin),
      payload: {
        name: basic.name,
        monthlyFee: basic.monthlyFee,
        annualFee: basic.annualFee,
        features: basic.features,
        services: basic.services,
        mediaMaxBytes: bytes,
      },
    });
  }

  it('seeds the plans with 100 MB, 1 GB and 4 GB of audio or video a file, and images as before', async () => {
    const plans = (await t.app.inject({ url: '/api/subscriptions/plans' })).json();
    expect(plans.map((p: { mediaMaxBytes: number }) => p.mediaMaxBytes)).toEqual([100e6, 1e9, 4e9]);
    expect(plans.map((p: { imageMaxBytes: number }) => p.imageMaxBytes)).toEqual([
      100e6, 100e6, 100e6,
    ]);
  });

  it('refuses a plan that promises a file past the server’s ceiling (RESULT_DISK_PER_USER)', async () => {
    const res = await setBasicMediaSize(10e9);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: ['mediaMaxBytes'] });
    expect(res.json().error).toContain('RESULT_DISK_PER_USER');
  });

  it.skipIf(!hasFfmpeg)(
    'refuses one byte past the plan’s size and takes the size itself, on the form, a resumable upload and a batch, charging nothing for a refusal',
    async () => {
      expect((await setBasicMediaSize(song.length)).statusCode).toBe(200);
      const { token } = await registerUser(t.app);
      const stats = (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json();
      expect(stats.fileMaxBytes.media).toBe(song.length);
      const oneMore = Buffer.concat([song, Buffer.alloc(1)]);

      const form = await convert(t, token, { file: oneMore });
      expect([form.statusCode, form.json().code]).toEqual([413, 'file_too_large']);
      const created = await createUpload(t.app, token, oneMore.length);
      expect([created.statusCode, created.json().code]).toEqual([413, 'file_too_large']);
      const batch = await postBatch(
        t.app,
        '/api/batch/audio/convertaudio',
        token,
        { format: 'mp3' },
        [{ name: 'one-more.wav', content: oneMore }],
      );
      expect([batch.statusCode, batch.json().code]).toEqual([413, 'file_too_large']);
      expect(await used(t, token)).toBe(0);
      expect(uploadFiles(t)).toEqual([]);

      const atLimit = await convert(t, token, { file: song });
      expect(atLimit.statusCode, atLimit.body).toBe(200);
      const id = await uploadWhole(t, token, song);
      const fromUpload = await convert(t, token, { upload: id });
      expect(fromUpload.statusCode, fromUpload.body).toBe(200);
      expect(await used(t, token)).toBe(2);
      expect((await setBasicMediaSize(100e6)).statusCode).toBe(200);
    },
  );
});

describe('resumable uploads', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    token = (await registerUser(t.app)).token;
  });
  afterAll(() => t.close());

  it('answers 401 without a sign-in and 404 for another user’s upload, which stays whole', async () => {
    const created = await createUpload(t.app, token, 10);
    const id = uploadId(created.headers.location);
    const anonymous = await t.app.inject({
      method: 'HEAD',
      url: `/api/uploads/${id}`,
      headers: { 'tus-resumable': '1.0.0' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await createUpload(t.app, '', 10)).statusCode).toBe(401);
    const other = (await registerUser(t.app)).token;
    expect((await uploadOffset(t.app, other, id)).status).toBe(404);
    const written = await sendBytes(t.app, other, id, 0, Buffer.alloc(10, 1));
    expect([written.statusCode, written.json().code]).toEqual([404, 'upload_not_found']);
    const dropped = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${id}`,
      headers: { 'tus-resumable': '1.0.0', ...bearer(other) },
    });
    expect(dropped.statusCode).toBe(404);
    // Its owner's metadata cannot be forged: a client's own `owner` is replaced.
    const forged = await createUpload(t.app, other, 10, { owner: 'someone-else' });
    expect((await uploadOffset(t.app, other, uploadId(forged.headers.location))).status).toBe(200);
    expect(await uploadOffset(t.app, token, id)).toEqual({ status: 200, offset: 0 });
    expect((await convert(t, other, { upload: id })).json().code).toBe('upload_not_found');
  });

  it('refuses an upload without its length, before anything is made', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1', ...bearer(token) },
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'validation_failed']);
  });

  it.skipIf(!hasFfmpeg)(
    'resumes an upload cut halfway from what the server has; its job’s result is the form’s, byte for byte',
    async () => {
      const created = await createUpload(t.app, token, song.length);
      const id = uploadId(created.headers.location);
      const half = Math.floor(song.length / 2);
      const onDisk = join(uploadsDir(t), id);
      await sendBytesThenCut(port, token, id, song, half, async () => {
        await until(() => statSync(onDisk).size === half, 'the first half on disk');
      });
      const { offset } = await until(async () => {
        const head = await uploadOffset(t.app, token, id);
        return head.status === 200 && head.offset > 0 ? head : undefined;
      }, 'the cut upload to be readable');
      expect(offset).toBe(half);
      const early = await convert(t, token, { upload: id });
      expect([early.statusCode, early.json().code]).toEqual([409, 'upload_unfinished']);

      const rest = await sendBytes(t.app, token, id, offset, song.subarray(offset));
      expect(rest.statusCode, rest.body).toBe(204);
      expect(rest.headers['upload-offset']).toBe(String(song.length));
      const before = await used(t, token);
      const resumed = await convert(t, token, { upload: id });
      expect(resumed.statusCode, resumed.body).toBe(200);
      const direct = await convert(t, token, { file: song });
      expect(resumed.rawPayload.equals(direct.rawPayload)).toBe(true);
      expect(resumed.headers['content-disposition']).toContain('song.mp3');
      expect(await used(t, token)).toBe(before + 2);
      // The upload became the job's input: it is no longer in the store.
      expect(uploadFiles(t).filter((name) => name.startsWith(id))).toEqual([]);
    },
  );

  it.skipIf(!hasFfmpeg)(
    'gives a taken upload back when its job is refused, for another try',
    async () => {
      const id = await uploadWhole(t, token, song);
      const refused = await postForm(t.app, CONVERT_AUDIO, {
        token,
        fields: { format: 'nonsense', upload: id },
      });
      expect(refused.statusCode).toBe(400);
      expect(await uploadOffset(t.app, token, id)).toEqual({ status: 200, offset: song.length });
      expect((await convert(t, token, { upload: id })).statusCode).toBe(200);
    },
  );

  it('refuses bytes from another offset (409), past the declared length (413), or without Tus-Resumable (412), keeping what it has', async () => {
    const id = uploadId((await createUpload(t.app, token, 10)).headers.location);
    expect((await sendBytes(t.app, token, id, 0, Buffer.alloc(4, 1))).statusCode).toBe(204);
    const wrongOffset = await sendBytes(t.app, token, id, 0, Buffer.alloc(4, 1));
    expect([wrongOffset.statusCode, wrongOffset.json().error]).toEqual([
      409,
      'The upload has 4 bytes; send from Upload-Offset 4',
    ]);
    const tooLong = await sendBytes(t.app, token, id, 4, Buffer.alloc(7, 1));
    expect([tooLong.statusCode, tooLong.json().code]).toEqual([413, 'file_too_large']);
    const noTus = await t.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${id}`,
      headers: {
        ...bearer(token),
        'upload-offset': '4',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(6, 1),
    });
    expect(noTus.statusCode).toBe(412);
    expect(await uploadOffset(t.app, token, id)).toEqual({ status: 200, offset: 4 });
    const rest = await sendBytes(t.app, token, id, 4, Buffer.alloc(6, 1));
    expect([rest.statusCode, rest.headers['upload-offset']]).toEqual([204, '10']);
  });

  it('refuses a form with both a file and an upload id', async () => {
    const id = uploadId((await createUpload(t.app, token, 10)).headers.location);
    const res = await postForm(t.app, CONVERT_AUDIO, {
      token,
      fields: { format: 'mp3', upload: id },
      file: { field: 'audio', content: Buffer.alloc(10, 1) },
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'validation_failed']);
  });
});

describe('resumable uploads from another site (CORS_ORIGINS)', () => {
  it('answers the preflight of a PATCH with its tus headers, and shows the offset and address', async () => {
    const origin = 'https://app.example.org';
    const t = await createTestApp('sqlite', { env: { CORS_ORIGINS: origin } });
    try {
      const { token } = await registerUser(t.app);
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/uploads/0123456789abcdef0123456789abcdef',
        headers: {
          origin,
          'access-control-request-method': 'PATCH',
          'access-control-request-headers':
            'authorization,tus-resumable,upload-offset,content-type',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
      expect(preflight.headers['access-control-allow-headers']).toContain('upload-offset');
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { origin, 'tus-resumable': '1.0.0', 'upload-length': '10', ...bearer(token) },
      });
      expect(created.statusCode).toBe(201);
      expect(created.headers['access-control-allow-origin']).toBe(origin);
      expect(String(created.headers['access-control-expose-headers'])).toMatch(/location/i);
    } finally {
      await t.close();
    }
  });
});

describe('an upload’s place on disk', () => {
  it('counts a user’s uploads in their disk allowance while they live', async () => {
    const t = await createTestApp('sqlite', { env: { RESULT_DISK_PER_USER: '5' } });
    try {
      const { token } = await registerUser(t.app);
      const stats = (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json();
      // Basic promises 100 MB; this server keeps 5 MB a user.
      expect(stats.fileMaxBytes.media).toBe(5e6);
      expect((await createUpload(t.app, token, 3e6)).statusCode).toBe(201);
      const second = await createUpload(t.app, token, 3e6);
      expect([second.statusCode, second.json().code]).toEqual([413, 'uploads_over_allowance']);
      expect((await createUpload(t.app, token, 2e6)).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('removes an upload silent for UPLOAD_TIMEOUT, finished or not', async () => {
    const t = await createTestApp('sqlite', { env: { UPLOAD_TIMEOUT: '1' } });
    try {
      const { token } = await registerUser(t.app);
      const id = uploadId((await createUpload(t.app, token, 1000)).headers.location);
      expect((await sendBytes(t.app, token, id, 0, Buffer.alloc(400, 1))).statusCode).toBe(204);
      expect(uploadFiles(t).sort()).toEqual([id, `${id}.json`]);
      await until(() => uploadFiles(t).length === 0, 'the abandoned upload to go');
      expect((await uploadOffset(t.app, token, id)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

/** An 8 MB tmpfs of its own (as root: a machine that may not mount one skips these tests). */
function mountSmallDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'refract-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    remove() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a tmpfs can be mounted here: tried once, and taken down at once. */
const canMount = (() => {
  const probe = mountSmallDisk();
  probe?.remove();
  return probe !== undefined;
})();

describe.skipIf(!canMount || !hasFfmpeg)('a disk without room (an 8 MB tmpfs as DATA_DIR)', () => {
  let t: TestApp;
  let token: string;
  let disk: ReturnType<typeof mountSmallDisk>;
  beforeAll(async () => {
    disk = mountSmallDisk();
    t = await createTestApp('sqlite', { env: { DATA_DIR: disk!.dir } });
    token = (await registerUser(t.app)).token;
  });
  afterAll(async () => {
    await t.close();
    disk!.remove();
  });

  it('answers 507 insufficient_storage before a byte is read, charging nothing, and takes a file that fits', async () => {
    const big = Buffer.concat([song, song, song]);
    const created = await createUpload(t.app, token, big.length);
    expect([created.statusCode, created.json().code]).toEqual([507, 'insufficient_storage']);
    expect(created.json().error).toMatch(/no room/);
    const form = await convert(t, token, { file: big });
    expect([form.statusCode, form.json().code]).toEqual([507, 'insufficient_storage']);
    expect(await used(t, token)).toBe(0);
    expect(leftIn(disk!.dir, 'uploads')).toEqual([]);
    expect(leftIn(disk!.dir, 'jobs')).toEqual([]);

    const fits = await convert(t, token, { file: song });
    expect(fits.statusCode, fits.body).toBe(200);
  });
});
