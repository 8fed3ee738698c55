import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { detectEngines } from './engines.js';

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
