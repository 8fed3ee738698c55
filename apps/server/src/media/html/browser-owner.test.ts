import { afterEach, describe, expect, it } from 'vitest';
import { chromiumOnce, hasChromium } from '../../test/chromium-processes.js';
import { resolveExecutable } from '../engines.js';
import { BrowserOwner } from './browser-owner.js';

const owners: BrowserOwner[] = [];
const newOwner = () => {
  const owner = new BrowserOwner({
    executablePath: resolveExecutable('chromium'),
    args: ['--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
    rendererMemoryCap: 1024 * 1024 * 1024,
  });
  owners.push(owner);
  return owner;
};
/** Exactly one browser tree runs and nothing is left of earlier ones. */
const single = (s: { browsers: number[]; strays: number }) =>
  s.browsers.length === 1 && s.strays === 0;

describe.skipIf(!hasChromium())('BrowserOwner: one browser, owned in one place', () => {
  afterEach(async () => {
    await Promise.all(owners.splice(0).map((owner) => owner.close()));
  });

  it('callers asking at once share one launch', async () => {
    const owner = newOwner();
    const [a, b, c] = await Promise.all([owner.get(), owner.get(), owner.get()]);
    expect(b.browser).toBe(a.browser);
    expect(c.browser).toBe(a.browser);
    expect(single(await chromiumOnce(single))).toBe(true);
  });

  it('a retired browser closing while its successor launches never clears the successor', async () => {
    const owner = newOwner();
    const first = await owner.get();
    const retired = owner.retire(first.browser);
    const launching = owner.get();
    // The first browser is closed, and its `disconnected` fired, while the second launches.
    await retired;
    const second = await launching;
    expect(second.browser).not.toBe(first.browser);
    expect(owner.isCurrent(second.browser)).toBe(true);
    expect((await owner.get()).browser).toBe(second.browser);
    expect(single(await chromiumOnce(single))).toBe(true);
  });

  it('retiring a browser that was already replaced leaves the current one alone', async () => {
    const owner = newOwner();
    const first = await owner.get();
    await owner.retire(first.browser);
    const second = await owner.get();
    await owner.retire(first.browser);
    expect(second.browser.isConnected()).toBe(true);
    expect((await owner.get()).browser).toBe(second.browser);
  });

  it('close ends every process of the browser', async () => {
    const owner = newOwner();
    await owner.get();
    await owner.close();
    const state = await chromiumOnce((s) => s.browsers.length === 0 && s.strays === 0);
    expect(state).toMatchObject({ browsers: [], strays: 0 });
    await expect(owner.get()).rejects.toMatchObject({ code: 'engine_unavailable' });
  });
});
