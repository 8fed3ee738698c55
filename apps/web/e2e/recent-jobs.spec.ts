import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, signUp, uniqueEmail } from './helpers';

/** For looking at, not for comparing: they are not committed. */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

const tone = () => {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-jobs-')), 'tone.wav');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', out]);
  return [...readFileSync(out)];
};

const picture = () => {
  const out = join(mkdtempSync(join(tmpdir(), 'refract-e2e-jobs-')), 'red.png');
  const args = ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x48'];
  execFileSync('ffmpeg', [...args, '-frames:v', '1', out]);
  return [...readFileSync(out)];
};

/** Sends a batch of two pictures and one damaged file to rotate, and waits for it to end. */
async function rotateBatch(page: Page, png: number[]) {
  return page.evaluate(async (png) => {
    const body = new FormData();
    body.set('angle', '90');
    body.append('file', new Blob([new Uint8Array(png)]), 'IMG_2001.png');
    body.append('file', new Blob([new Uint8Array(png.slice(0, 40))]), 'damaged.png');
    body.append('file', new Blob([new Uint8Array(png)]), 'beach.png');
    const auth = { authorization: `Bearer ${localStorage.getItem('token')}` };
    const res = await fetch('/api/batch/rotate', { method: 'POST', headers: auth, body });
    const { batchId } = (await res.json()) as { batchId: string };
    for (;;) {
      const batch = await (await fetch(`/api/batches/${batchId}`, { headers: auth })).json();
      if (batch.status === 'done' || batch.status === 'cancelled') return batch.counts;
      await new Promise((r) => setTimeout(r, 300));
    }
  }, png);
}

/** Starts an async job from the page, as an API client would, and waits for it to end. */
async function asyncJob(page: Page, bytes: number[]) {
  return page.evaluate(async (bytes) => {
    const body = new FormData();
    body.set('format', 'mp3');
    body.set('audio', new Blob([new Uint8Array(bytes)]), 'tone.wav');
    const auth = { authorization: `Bearer ${localStorage.getItem('token')}` };
    const res = await fetch('/api/audio/convertaudio?async=1', {
      method: 'POST',
      headers: auth,
      body,
    });
    const { jobId } = (await res.json()) as { jobId: string };
    for (;;) {
      const job = await (await fetch(`/api/jobs/${jobId}`, { headers: auth })).json();
      if (job.status !== 'queued' && job.status !== 'running') return job.status as string;
      await new Promise((r) => setTimeout(r, 300));
    }
  }, bytes);
}

test.describe.configure({ timeout: 120_000 });

test('a job started elsewhere is listed in Recent jobs and its file downloads', async ({
  page,
}) => {
  await signUp(page, uniqueEmail(), 'recent jobs password 1');
  expect(await asyncJob(page, tone())).toBe('done');
  await page.goto('/dashboard');
  const row = page.getByTestId('recent-job').filter({ hasText: 'Convert audio' });
  await expect(row.getByText('Done')).toBeVisible();
  // Named by its file, with its sizes before and after.
  await expect(row.getByText('tone.wav')).toBeVisible();
  await expect(row.getByText(/KB → .*KB/)).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('tone.mp3');
});

test('a batch is one entry that opens on its files, each with its state and download', async ({
  page,
}) => {
  await signUp(page, uniqueEmail(), 'recent jobs password 1');
  expect(await rotateBatch(page, picture())).toMatchObject({ total: 3, done: 2, failed: 1 });
  await page.goto('/dashboard');
  const entries = page.getByTestId('recent-job');
  await expect(entries).toHaveCount(1);
  await expect(entries.getByText('Batch of 3 files')).toBeVisible();
  await expect(entries.getByText(/Rotate image · 2 done, 1 failed/)).toBeVisible();
  await entries.getByRole('button', { name: 'Show files' }).click();
  await expect(entries.getByText('damaged.png')).toBeVisible();
  await expect(entries.getByText('Failed', { exact: true })).toBeVisible();
  const [one] = await Promise.all([
    page.waitForEvent('download'),
    entries.getByRole('button', { name: 'Download', exact: true }).last().click(),
  ]);
  expect(one.suggestedFilename()).toMatch(/\.png$/);
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    entries.getByRole('button', { name: 'Download all (zip)' }).click(),
  ]);
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
});

for (const language of ['en', 'ar'] as const) {
  for (const width of [1280, 375]) {
    test(`Recent jobs, ${language} at ${width} px`, async ({ page }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'recent jobs password 1');
      await asyncJob(page, tone());
      await rotateBatch(page, picture());
      await page.goto('/dashboard');
      if (language === 'ar') await chooseArabic(page);
      const entries = page.getByTestId('recent-job');
      await expect(entries).toHaveCount(2);
      await entries.first().getByRole('button').first().click();
      await expect(entries.first().getByText('damaged.png')).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await entries.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/recent-jobs-${language}-${width}.png` });
    });
  }
}
