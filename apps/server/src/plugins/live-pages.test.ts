import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { livePages } from './live-pages.js';

/**
 * A web build with a prerender module of its own, standing for the web app's (dist-ssr): it
 * draws the plans and the payment mode it is given, and notes each call in `calls.log`.
 */
function webBuild(prerender: string) {
  const root = mkdtempSync(join(tmpdir(), 'refract-live-'));
  mkdirSync(join(root, 'dist', 'assets'), { recursive: true });
  mkdirSync(join(root, 'dist-ssr'));
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(root, 'dist-ssr', 'prerender-pages.js'), prerender);
  return root;
}

const DRAWS = (log: string) => `
import { appendFileSync } from 'node:fs';
export async function drawLivePage(path, languages, data) {
  const names = data.plans.map((plan) => plan.name).join(',');
  const pages = {};
  for (const language of languages) {
    appendFileSync(${JSON.stringify(log)}, language + '\\n');
    pages[language] = '<h1>' + language + ' ' + path + ' ' + names + ' test=' + data.paymentMode.testMode + '</h1>';
  }
  return pages;
}`;

describe('/plans drawn by the server with its own plans', () => {
  let t: TestApp;
  let root: string;
  let build: string;
  let log: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'refract-live-log-'));
    log = join(root, 'calls.log');
    appendFileSync(log, '');
    build = webBuild(DRAWS(log));
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: join(build, 'dist') } });
  });
  afterAll(async () => {
    await t.close();
    for (const dir of [root, build]) rmSync(dir, { recursive: true, force: true });
  });

  const page = async (cookie = '') => {
    const res = await t.app.inject({ url: '/plans', headers: { 'accept-encoding': 'br', cookie } });
    return brotliDecompressSync(res.rawPayload).toString();
  };
  const draws = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

  it('draws every language once per version of the plans, with them and the payment mode', async () => {
    expect(await page()).toBe('<h1>en /plans Basic,Developer,Business test=true</h1>');
    expect(await page('refract.language=ar')).toBe(
      '<h1>ar /plans Basic,Developer,Business test=true</h1>',
    );
    expect(draws()).toBe(7);

    // An admin renames a plan: the next page is drawn again, with it.
    const token = await adminToken(t.app);
    const plans = (await t.app.inject({ url: '/api/subscriptions/plans' })).json();
    const {
      _id: id,
      archived: _archived,
      ...business
    } = plans.find((plan: { name: string }) => plan.name === 'Business');
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/subscriptions/plans/${id}`,
      headers: bearer(token),
      payload: { ...business, name: 'Studio' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await page()).toBe('<h1>en /plans Basic,Developer,Studio test=true</h1>');
    expect(draws()).toBe(14);
  });

  it('leaves the page to the build while the plans version cannot be read', async () => {
    const live = livePages(t.app, join(build, 'dist'), () => Promise.reject(new Error('down')));
    expect(await live!.page('en', '/plans')).toBeUndefined();
    expect(draws()).toBe(14);
  });
});

describe('a prerender module that fails', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = webBuild('');
    const log = join(root, 'calls.log');
    writeFileSync(
      join(root, 'dist-ssr', 'prerender-pages.js'),
      `import { appendFileSync } from 'node:fs';
      export async function drawLivePage() {
        appendFileSync(${JSON.stringify(log)}, 'tried\\n');
        throw new Error('broken');
      }`,
    );
    mkdirSync(join(root, 'dist', 'pages', 'en'), { recursive: true });
    writeFileSync(join(root, 'dist', 'pages', 'en', 'plans.html'), '<h1>built</h1>');
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: join(root, 'dist') } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("leaves the build's page to serve, and is tried once for the plans as they are", async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ url: '/plans', headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('<h1>built</h1>');
    }
    const calls = readFileSync(join(root, 'calls.log'), 'utf8');
    expect(calls).toBe('tried\n');
  });
});
