import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, type RegisteredUser } from '../test/accounts.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { TOOL_REGISTRY } from '../tools/registry.js';

describe('unknown field names are refused with 400 unknown_field', () => {
  let t: TestApp;
  let user: RegisteredUser;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    user = await registerUser(t.app);
    png = await fixtures.pngBytes(20, 20);
  });
  afterAll(() => t.close());

  /** Uses of rotate this period: the quota a refused request must not touch. */
  const used = async () => {
    const stats = (
      await t.app.inject({ url: '/api/user/stats', headers: bearer(user.token) })
    ).json();
    return stats.usage.find((u: { service: string }) => u.service === 'modify-rotate')
      .used as number;
  };

  it('names `rotation` sent to /api/rotate instead of taking the default 90°, charging nothing', async () => {
    const before = await used();
    expect(before).toBe(0);
    const res = await postForm(t.app, '/api/rotate', {
      token: user.token,
      fields: { rotation: '180' },
      file: { field: 'image', filename: 'a.png', content: png },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unknown_field', fields: ['rotation'] });
    expect(res.json().error).toContain('"rotation"');
    expect(await used()).toBe(before);
    expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]);
  });

  it.each(TOOL_REGISTRY.map((tool) => [tool.path, tool.fileField] as const))(
    '%s refuses an unknown text field and a file under another name',
    async (path, fileField) => {
      const extra = await postForm(t.app, path, {
        token: user.token,
        fields: { colour: 'red' },
        file: { field: fileField, filename: 'a.png', content: png },
      });
      expect(extra.statusCode, extra.body).toBe(400);
      expect(extra.json()).toMatchObject({ code: 'unknown_field', fields: ['colour'] });
      const wrongFile = await postForm(t.app, path, {
        token: user.token,
        fields: {},
        file: { field: 'upload', filename: 'a.png', content: png },
      });
      expect(wrongFile.json()).toMatchObject({ code: 'unknown_field', fields: ['upload'] });
    },
  );

  it('refuses unknown fields in JSON bodies, naming them all, before validation', async () => {
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/user/track',
      headers: bearer(user.token),
      payload: { service: 'modify-rotate', imageCount: 1, count: 2, extra: true },
    });
    expect(track.statusCode).toBe(400);
    expect(track.json()).toMatchObject({ code: 'unknown_field', fields: ['count', 'extra'] });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.user.email, password: 'x', remember: true },
    });
    expect(login.json()).toMatchObject({ code: 'unknown_field', fields: ['remember'] });
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/create-checkout-session',
      headers: bearer(user.token),
      payload: { plan: 'developer' },
    });
    expect(checkout.json()).toMatchObject({ code: 'unknown_field', fields: ['plan'] });
    // Authentication still comes first: an anonymous caller learns nothing from the schema.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/user/track',
      payload: { nope: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses unknown query fields, declared query strings or none, after authentication', async () => {
    const before = await used();
    const rotate = await postForm(t.app, '/api/rotate?rotation=180', {
      token: user.token,
      fields: {},
      file: { field: 'image', filename: 'a.png', content: png },
    });
    expect(rotate.statusCode).toBe(400);
    expect(rotate.json()).toMatchObject({ code: 'unknown_field', fields: ['rotation'] });
    expect(await used()).toBe(before);
    expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]);

    const jobs = await t.app.inject({
      url: '/api/jobs?limit=5&colour=red&size=2',
      headers: bearer(user.token),
    });
    expect(jobs.statusCode).toBe(400);
    expect(jobs.json()).toMatchObject({ code: 'unknown_field', fields: ['colour', 'size'] });
    expect(jobs.json().error).toContain('Known: limit, cursor');
    const stats = await t.app.inject({ url: '/api/user/stats?_=1', headers: bearer(user.token) });
    expect(stats.json()).toMatchObject({ code: 'unknown_field', fields: ['_'] });
    const anonymous = await t.app.inject({ url: '/api/user/stats?_=1' });
    expect(anonymous.statusCode).toBe(401);

    const declared = await t.app.inject({ url: '/api/jobs?limit=5', headers: bearer(user.token) });
    expect(declared.statusCode, declared.body).toBe(200);
    // The web app's pages are not the API: a link's own query string still opens them.
    const page = await t.app.inject({ url: '/success?session_id=abc' });
    expect(page.statusCode).not.toBe(400);
  });

  it('still accepts every declared field', async () => {
    const res = await postForm(t.app, '/api/rotate', {
      token: user.token,
      fields: { angle: '180' },
      file: { field: 'image', filename: 'a.png', content: png },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
