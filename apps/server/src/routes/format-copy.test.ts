import { readdirSync, readFileSync } from 'node:fs';
import { AUDIO_FORMATS, IMAGE_FORMATS, VIDEO_FORMATS } from '@refract/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const LOCALES = new URL('../../../web/src/locales/', import.meta.url);

/** Every string of a locale file, with its key path. */
function strings(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, v]) => strings(v, path ? `${path}.${key}` : key));
  return [];
}

/** Format names as the copy writes them: PNG, JPG, HEIC, MP3 (upper case, standing alone). */
const NAMED = /(?<![\p{L}\p{N}])([A-Z][A-Z0-9]{1,4})(?![\p{L}\p{N}])/gu;

/**
 * No claim without a capability: every image format the home page, FAQ or any
 * tool page names, in any language, is one this server really reads and writes, as
 * GET /api/formats reports it (HEIC needs libheif-examples installed).
 */
describe('formats named in the copy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('are all readable and writable here', async () => {
    const { formats } = (await t.app.inject({ url: '/api/formats' })).json() as {
      formats: { format: string; read: boolean; write: boolean }[];
    };
    const image = new Set<string>(IMAGE_FORMATS);
    const media = new Set<string>([...AUDIO_FORMATS, ...VIDEO_FORMATS]);
    const falseClaims: string[] = [];
    let named = 0;
    for (const file of readdirSync(LOCALES).filter((f) => f.endsWith('.json'))) {
      const copy = JSON.parse(readFileSync(new URL(file, LOCALES), 'utf8')) as unknown;
      for (const [key, text] of strings(copy)) {
        for (const [, word] of text.matchAll(NAMED)) {
          const name = word!.toLowerCase();
          // MP4, WEBM, MOV are video formats in the copy, which ffmpeg reads and writes.
          if (media.has(name) || !image.has(name)) continue;
          named += 1;
          const info = formats.find((f) => f.format === name)!;
          if (!info.read || !info.write) falseClaims.push(`${file} ${key}: ${word}`);
        }
      }
    }
    expect(named).toBeGreaterThan(50);
    expect(falseClaims).toEqual([]);
  });
});
