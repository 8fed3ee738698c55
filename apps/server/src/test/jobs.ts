import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bearer } from './accounts.js';
import { hasFfmpeg } from './image-fixtures.js';
import * as media from './media-fixtures.js';
import { postForm } from './multipart.js';
import type { TestApp } from './test-app.js';

/** Helpers for the audio and video job tests. */
export const wav = hasFfmpeg ? media.sineWav(2) : Buffer.alloc(0);
/** Long enough to still be running when a test cancels it. */
export const longVideo = hasFfmpeg ? media.testVideo(30, '640x480') : Buffer.alloc(0);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every 100 ms until it gives a value. A hang guard, not a goal: it fails after
 * 90 s (at 30 s, a CI run with the build and four CPU hogs beside it once waited longer for a
 * job's ffmpeg to start).
 */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** `pid args` lines of running ffmpeg processes that work on this job's files. */
const ffmpegProcessesFor = (jobId: string) =>
  execFileSync('ps', ['-eo', 'pid=,args='])
    .toString()
    .split('\n')
    .filter((line) => line.includes('ffmpeg') && line.includes(jobId))
    .map((line) => line.trim());

/** Command lines of running ffmpeg processes that work on this job's files. */
export const ffmpegFor = (jobId: string) =>
  ffmpegProcessesFor(jobId).map((line) => line.replace(/^\d+\s+/, ''));

export function submit(t: TestApp, token: string, content: Buffer, format = 'mp3', async = true) {
  const video = format === 'webm';
  const path = video ? '/api/video/convert-video' : '/api/audio/convertaudio';
  return postForm(t.app, `${path}${async ? '?async=1' : ''}`, {
    token,
    fields: { format },
    file: { field: video ? 'video' : 'audio', content },
  });
}

export const status = (t: TestApp, token: string, id: string) =>
  t.app.inject({ url: `/api/jobs/${id}`, headers: bearer(token) });
export const result = (t: TestApp, token: string, id: string) =>
  t.app.inject({ url: `/api/jobs/${id}/result`, headers: bearer(token) });
export const cancel = (t: TestApp, token: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/jobs/${id}`, headers: bearer(token) });
export const jobDir = (t: TestApp, id: string) => join(t.database.options.dataDir, 'jobs', id);
/** Uses counted (held or confirmed) this period, every service. */
export const used = async (t: TestApp, token: string) =>
  (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json().imagesProcessed;

export async function ended(t: TestApp, token: string, id: string) {
  return until(async () => {
    const job = (await status(t, token, id)).json();
    return ['done', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
  }, `job ${id} to end`);
}

/**
 * Starts a long video job, waits until its ffmpeg runs, then pauses that ffmpeg (SIGSTOP): the
 * job stays running for as long as the test needs it, however busy the machine (a clip that
 * finished early let queued jobs start and broke the tests that count jobs under way).
 * Cancelling still ends it: the runner kills ffmpeg's group with SIGKILL, which reaches a
 * paused process.
 */
export async function runningJob(t: TestApp, token: string) {
  const res = await submit(t, token, longVideo, 'webm');
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json();
  await until(async () => (await status(t, token, jobId)).json().status === 'running', 'running');
  const processes = await until(() => {
    const found = ffmpegProcessesFor(jobId);
    return found.length > 0 ? found : undefined;
  }, 'ffmpeg to start');
  for (const line of processes) process.kill(Number.parseInt(line, 10), 'SIGSTOP');
  return jobId as string;
}

/**
 * Five upload slots as a web process claims them before reading the uploads (status
 * `receiving`), last renewed `agoMs` ago, each with its job folder: they hold all of the user's
 * places for jobs under way.
 */
export async function receivingSlots(t: TestApp, userId: string, agoMs = 0): Promise<string[]> {
  const at = new Date(Date.now() - agoMs).toISOString();
  const ids: string[] = Array.from({ length: 5 }, () => randomUUID());
  await t.database.db
    .insertInto('jobs')
    .values(
      ids.map((id) => ({
        id,
        user_id: userId,
        tool: 'convert-audio',
        fields: '{}',
        service: '',
        period_start: '',
        input_bytes: 0,
        status: 'receiving' as const,
        progress: 0,
        charged: 0,
        attempts: 0,
        waived: 0,
        runner: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  for (const id of ids) mkdirSync(jobDir(t, id), { recursive: true });
  return ids;
}
