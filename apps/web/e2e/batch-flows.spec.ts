import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grainyJpeg, zipNames } from './batch-files';
import { expect, test } from './fixtures';
import { apiFromPage, buy, planId, signUp, uniqueEmail } from './helpers';

const photo = (name: string, seed: number) =>
  grainyJpeg(name, { width: 120 + seed, height: 90, mean: 100 + 10 * seed });

const imageTools = [
  { page: '/convert', endpoint: '/api/batch/convert', ext: 'png', service: 'convert-from-jpg' },
  { page: '/compress', endpoint: '/api/batch/compress', ext: 'jpg', service: 'optimize-compress' },
];

for (const tool of imageTools)
  test(`10 mixed files on ${tool.page}: 8 results, 2 errors, a zip of 8, 8 uses, private to their owner`, async ({
    strictPage: page,
    browser,
  }) => {
    await signUp(page, uniqueEmail(), 'batch flows 1');
    // Developer: 20 files a batch and enough uses for all ten.
    await buy(page, await planId(page, 'Developer'));
    await page.goto(tool.page);
    const good = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => photo(`p${i}.jpg`, i)));
    await page.locator('input[type="file"]').setInputFiles([
      good[0]!,
      { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a jpeg') },
      ...good.slice(1, 4),
      // An image by its name, text inside: the server tells, per file.
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text\n') },
      ...good.slice(4),
      await photo('p1.jpg', 9),
    ]);
    await expect(page.getByTestId('batch-row')).toHaveCount(10);
    const [created] = await Promise.all([
      page.waitForResponse((res) => res.url().includes(tool.endpoint)),
      page.getByTestId('batch-start').click(),
    ]);
    const { batchId } = (await created.json()) as { batchId: string };
    await expect(page.getByText('8 done, 2 failed, of 10')).toBeVisible({ timeout: 60_000 });
    // In name order: broken.jpg, notes.png, p1.jpg, p1.jpg, p2.jpg … p7.jpg.
    const rows = page.getByTestId('batch-row');
    await expect(rows.nth(0)).toHaveAttribute('data-status', 'failed');
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'failed');
    await expect(rows.nth(1)).toContainText('This type of file is not supported.');

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all (.zip)' }).click(),
    ]);
    expect(await zipNames((await zip.path())!)).toEqual([
      `p1.${tool.ext}`,
      `p1 (2).${tool.ext}`,
      ...[2, 3, 4, 5, 6, 7].map((i) => `p${i}.${tool.ext}`),
    ]);

    // Another account is told the batch does not exist, on every address of it.
    const other = await browser.newPage();
    await signUp(other, uniqueEmail(), 'batch flows 2');
    for (const path of ['', '/zip', '/files/0'])
      expect((await apiFromPage(other, `/api/batches/${batchId}${path}`)).status).toBe(404);
    await other.close();

    await page.goto('/dashboard');
    await expect(page.getByTestId(`usage-${tool.service}`)).toHaveText(/^8 of \d+ used$/);
  });

/** A clip from ffmpeg's test source, encoded for real. */
function clip(seconds: number, size: string) {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-batch-')), 'clip.mp4');
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc=size=${size}:rate=30:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', out],
  ]);
  return readFileSync(out);
}

test('10 mixed videos on compress: 8 results, 2 errors, a zip of 8, 8 uses', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'batch flows 4');
  await buy(page, await planId(page, 'Business'));
  await page.goto('/compress-video');
  const video = clip(1, '320x240');
  const mp4 = (name: string, buffer = video) => ({ name, mimeType: 'video/mp4', buffer });
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      ...['a', 'b', 'c', 'd'].map((n) => mp4(`${n}.mp4`)),
      mp4('broken.mp4', video.subarray(0, 2000)),
      mp4('notes.mp4', Buffer.from('just some text\n')),
      ...['e', 'f', 'g', 'a'].map((n) => mp4(`${n}.mp4`)),
    ]);
  await page.getByTestId('batch-start').click();
  await expect(page.getByText('8 done, 2 failed, of 10')).toBeVisible({ timeout: 120_000 });
  // In name order: a, a, b, broken, c, d, e, f, g, notes.
  await expect(page.getByTestId('batch-row').nth(3)).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('batch-row').nth(9)).toHaveAttribute('data-status', 'failed');
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (.zip)' }).click(),
  ]);
  expect(await zipNames((await zip.path())!)).toEqual([
    'a.mp4',
    'a (2).mp4',
    'b.mp4',
    'c.mp4',
    'd.mp4',
    'e.mp4',
    'f.mp4',
    'g.mp4',
  ]);
  await page.goto('/dashboard');
  // Business has no limit on it: "8 used · unlimited".
  await expect(page.getByTestId('usage-compress-video')).toHaveText(/^8 used/);
});

test('a video batch cancelled while it works: only finished files are charged', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'batch flows 3');
  await page.goto('/compress-video');
  // Long enough to be still working when Cancel is pressed (making it takes a while too).
  test.setTimeout(240_000);
  const long = clip(60, '1280x720');
  await page.locator('input[type="file"]').setInputFiles([
    { name: 'one.mp4', mimeType: 'video/mp4', buffer: long },
    { name: 'two.mp4', mimeType: 'video/mp4', buffer: long },
  ]);
  await page.getByTestId('batch-start').click();
  const rows = page.getByTestId('batch-row');
  // The app is shared with the other browser worker: its video jobs may be ahead in the queue.
  await expect(rows.first()).toHaveAttribute('data-status', 'running', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  // The two files may run side by side, so one can finish in the instant before Cancel lands:
  // whatever had finished stays done and is charged; the rest is cancelled and costs nothing.
  const statuses = () => rows.evaluateAll((all) => all.map((row) => row.dataset.status));
  const ended = (all: (string | undefined)[]) =>
    all.every((status) => status === 'done' || status === 'cancelled');
  await expect.poll(async () => ended(await statuses())).toBe(true);
  const final = await statuses();
  expect(final).toContain('cancelled');
  const done = final.filter((status) => status === 'done').length;
  await expect(page.getByText(`${done} done, ${2 - done} failed, of 2`)).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByTestId('usage-compress-video')).toHaveText(`${done} of 3 used`);
});
