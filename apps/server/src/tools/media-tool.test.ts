import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertAudioFieldsSchema } from '@refract/contracts';
import { loadConfig } from '../config.js';
import type { Engines } from '../media/engines.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import { sineWav } from '../test/media-fixtures.js';
import { convertAudioTool } from './convert-audio.js';
import { jobTimeLimitMs } from './media-tool.js';

describe.skipIf(!hasFfmpeg)('a media job probes its file once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-probe-once-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs on the probe made at upload, without ffprobe', async () => {
    const input = join(dir, 'input');
    writeFileSync(input, sineWav(1));
    const config = loadConfig({ DATA_DIR: dir });
    const fields = convertAudioFieldsSchema.parse({ format: 'mp3' });
    await convertAudioTool.inspect!(input, fields, config);

    // An ffprobe that does not exist: the job can only succeed on the kept probe.
    const noProbe = { ...config, engines: { ...config.engines, ffprobe: join(dir, 'none') } };
    const result = await convertAudioTool.run({
      input,
      inputBytes: statSync(input).size,
      fields,
      workDir: dir,
      engines: {} as Engines,
      config: noProbe,
      onProgress: () => {},
      signal: new AbortController().signal,
    });
    expect(existsSync(result.path)).toBe(true);
  });
});

describe("a media job's time limit", () => {
  it('is 15 minutes, or five times the media’s length when longer (a video of gigabytes)', () => {
    expect(jobTimeLimitMs(60)).toBe(15 * 60 * 1000);
    // An hour of 4K, encoded at a quarter of realtime on 2 cores, needs 4 hours.
    expect(jobTimeLimitMs(3600)).toBe(5 * 3600 * 1000);
  });
});
