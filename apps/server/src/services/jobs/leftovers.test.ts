import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sweepLeftovers } from './leftovers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(dataDir: string, path: string, ageMs: number) {
  const full = join(dataDir, path);
  mkdirSync(full, { recursive: true });
  writeFileSync(join(full, 'input'), 'partial upload');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(full, at, at);
  return full;
}

it('removes only old files that no job or request owns', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-leftovers-'));
  dirs.push(dataDir);
  const hour = 3_600_000;
  const orphan = place(dataDir, 'jobs/orphan', hour);
  const owned = place(dataDir, 'jobs/owned', hour);
  const fresh = place(dataDir, 'jobs/fresh', 1000);
  const oldRequest = place(dataDir, 'tmp/req-old', hour);
  const liveRequest = place(dataDir, 'tmp/req-live', 1000);
  const other = place(dataDir, 'tmp/not-ours', hour);

  const removed = await sweepLeftovers({
    dataDir,
    graceMs: 60_000,
    hasJob: async (id) => id === 'owned',
  });

  expect(removed.sort()).toEqual([orphan, oldRequest].sort());
  expect(existsSync(orphan)).toBe(false);
  expect(existsSync(oldRequest)).toBe(false);
  for (const kept of [owned, fresh, liveRequest, other]) expect(existsSync(kept)).toBe(true);
});
