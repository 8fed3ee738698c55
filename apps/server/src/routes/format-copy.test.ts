import { readdirSync, readFileSync } from 'node:fs';
import {
  AUDIO_FORMATS,
  compressFieldsSchema,
  IMAGE_FORMATS,
  pngPaletteColours,
  VIDEO_FORMATS,
} from '@refract/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fixtures from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
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

/** A PNG's colour type (IHDR's byte at 25: 3 is indexed) and its palette's entries (PLTE / 3). */
function pngLayout(png: Buffer) {
  let colours = 0;
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'PLTE') colours = length / 3;
    at += 12 + length;
  }
  return { colourType: png[25], colours };
}

/**
 * The Compress page's hint under the quality slider, shown for a PNG: the quality picks a
 * palette of at most pngPaletteColours(quality) colours (the page shows that number), the
 * fewest that reach the quality, so a photo fills it; and no lossless setting, even at 100.
 */
describe("the Compress page's PNG hint", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  it('is in every language, with the live count and the 256 colours at 100', () => {
    expect(pngPaletteColours(100)).toBe(256);
    for (const file of readdirSync(LOCALES).filter((f) => f.endsWith('.json'))) {
      const copy = JSON.parse(readFileSync(new URL(file, LOCALES), 'utf8')) as {
        compress: { pngHint: string };
      };
      expect(copy.compress.pngHint, file).toContain('{{colours}}');
      expect(copy.compress.pngHint, file).toMatch(/\b100\b.*\b256\b/s);
    }
  });

  // Undefined: the field left out, the server's default (and the page's starting value).
  it.each([undefined, 1, 4, 7, 100])(
    'at quality %s a photo comes back indexed, filling the palette the hint states',
    async (quality) => {
      const photo = await sharp(await fixtures.photoJpeg(480, 320))
        .png()
        .toBuffer();
      const res = await postForm(t.app, '/api/compress', {
        token,
        fields: quality === undefined ? {} : { quality: String(quality) },
        file: { filename: 'photo.png', content: photo },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const asked = quality ?? compressFieldsSchema.parse({}).quality;
      const { colourType, colours } = pngLayout(res.rawPayload);
      expect(colourType).toBe(3);
      expect(colours).toBeLessThanOrEqual(pngPaletteColours(asked));
      expect(colours).toBeGreaterThan(pngPaletteColours(asked) / 2);
    },
  );
});
