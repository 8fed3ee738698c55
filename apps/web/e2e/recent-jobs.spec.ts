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
  const row = page.getByRole('row').filter({ hasText: 'Convert audio' });
  await expect(row.getByText('Done')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('tone.mp3');
});

for (const language of ['en', 'ar'] as const) {
  for (const width of [1280, 375]) {
    test(`Recent jobs, ${language} at ${width} px`, async ({ page }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'recent jobs password 1');
      await asyncJob(page, tone());
      await page.goto('/dashboard');
      if (language === 'ar') await chooseArabic(page);
      await expect(page.getByRole('row').first()).toBeVisible();
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.getByRole('row').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/recent-jobs-${language}-${width}.png` });
    });
  }
}
