import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ffmpegEncoders } from './av/encoders.js';
import { detectEngines, keepProbingSilentEngines, silentEngines } from './engines.js';

function installed(command: string): boolean {
  try {
    execFileSync('which', [command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('detectEngines', () => {
  it('finds sharp and ImageMagick (wasm) from npm packages', async () => {
    const engines = await detectEngines({ ffmpeg: 'ffmpeg', chromium: 'chromium' });
    expect(engines.sharp).toMatchObject({ available: true });
    expect(engines.magick.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.skipIf(!installed('ffmpeg'))('reads the ffmpeg version when it is installed', async () => {
    const { ffmpeg } = await detectEngines({ ffmpeg: 'ffmpeg', chromium: 'chromium' });
    expect(ffmpeg.available).toBe(true);
    expect(ffmpeg.version).toMatch(/^\d/);
  });

  it.skipIf(!installed('chromium'))('reads the chromium version when it is installed', async () => {
    const { chromium } = await detectEngines({ ffmpeg: 'ffmpeg', chromium: 'chromium' });
    expect(chromium.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it.skipIf(!installed('heif-enc'))('reads libheif when its tools are installed', async () => {
    const { libheif } = await detectEngines({ ffmpeg: 'ffmpeg', chromium: 'chromium' });
    expect(libheif).toEqual({ available: true, version: expect.stringMatching(/^\d+\.\d+/) });
  });

  it('reports engines at bad paths as missing, without a shell', async () => {
    const engines = await detectEngines({ ffmpeg: 'ffmpeg; touch /tmp/pwned', chromium: '$(id)' });
    expect(engines.ffmpeg.available).toBe(false);
    expect(engines.chromium.available).toBe(false);
  });
});

/**
 * An ffmpeg that hangs on its first `hangs` calls, as a program can when the machine is loaded,
 * and is the real one after.
 */
function slowToStartFfmpeg(dir: string, name: string, hangs: number) {
  const path = join(dir, name);
  const count = `${path}.calls`;
  writeFileSync(
    path,
    `#!/bin/sh\necho x >> '${count}'\n` +
      `[ "$(wc -l < '${count}')" -le ${hangs} ] && exec sleep 600\nexec ffmpeg "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!installed('ffmpeg'))('an ffmpeg slow to answer at start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-slow-ffmpeg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The first try is cut short to stand for a probe timed out under load; the next is a hang guard.
  const tries = [300, 60_000];

  it('is probed again: audio and video stay on', async () => {
    const ffmpeg = slowToStartFfmpeg(dir, 'at-start', 1);
    const engines = await detectEngines({ ffmpeg, chromium: 'chromium', probeTriesMs: tries });
    expect(engines.ffmpeg).toMatchObject({
      available: true,
      version: expect.stringMatching(/^\d/),
    });
  });

  it('lists its encoders on a later try, and a failed listing is not kept', async () => {
    const ffmpeg = slowToStartFfmpeg(dir, 'encoders', 1);
    expect(await ffmpegEncoders(ffmpeg, [300])).toEqual(new Set());
    expect(await ffmpegEncoders(ffmpeg, tries)).toContain('libx264');
  });

  it('is not ready while silent, and found again by the next probe', async () => {
    const ffmpeg = slowToStartFfmpeg(dir, 'later', 2);
    // No Chromium here: its probe, cut as short, would be silent too on a busy machine.
    const paths = { ffmpeg, chromium: join(dir, 'no-chromium'), probeTriesMs: [300] };
    const engines = await detectEngines(paths);
    expect(engines.ffmpeg.available).toBe(false);
    expect(silentEngines(engines, paths)).toEqual(['ffmpeg']);
    // A program that is not installed at all is missing, not silent.
    expect(silentEngines(engines, { ...paths, ffmpeg: join(dir, 'none') })).toEqual([]);
    const stop = keepProbingSilentEngines(engines, { ...paths, probeTriesMs: tries }, 10);
    try {
      await vi.waitFor(() => expect(engines.ffmpeg.available).toBe(true), { timeout: 120_000 });
      expect(silentEngines(engines, paths)).toEqual([]);
    } finally {
      stop();
    }
  });
});
