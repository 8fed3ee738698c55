import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.js';
import { bombPng, hasFfmpeg, hasLibheif, heicOf } from '../test/image-fixtures.js';
import { hugeFramesTs } from '../test/media-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { TOOL_REGISTRY } from '../tools/registry.js';
import * as hostile from './hostile-images.js';
import { collectGarbage, watchLoopTwiceIfSlow } from './loop-watch.js';

/** Fields each tool accepts, so only the file can be refused (tools not named need none). */
const FIELDS: Record<string, Record<string, string>[]> = {
  // Each engine convert writes with: sharp, ImageMagick, ffmpeg.
  convert: [{ format: 'png' }, { format: 'pdf' }, { format: 'webm' }],
  resize: [{ width: '100' }],
  rotate: [{ angle: '90' }],
  crop: [{ x: '0', y: '0', width: '10', height: '10' }],
  watermark: [{ text: 'mine' }],
  meme: [{ topText: 'top' }],
  blurFace: [
    { areas: '[{"x":0,"y":0,"width":50,"height":50}]', style: 'pixelate' },
    { detect: 'true' },
  ],
  convertAudio: [{ format: 'wav' }],
  convertVideo: [{ format: 'mp4' }],
};

/** Every tool's route (a new tool is sent the corpus too), and detect-faces. */
const ROUTES = [
  ...TOOL_REGISTRY.flatMap((tool) =>
    (FIELDS[tool.id] ?? [{}]).map((fields) => ({ path: tool.path, field: tool.fileField, fields })),
  ),
  { path: '/api/detect-faces', field: 'image', fields: {} },
];

/** A PDF and an EPS: outputs only, never read; they must be refused as they are. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page /MediaBox [0 0 99999 99999] >> endobj\n');
const EPS = Buffer.from('%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 99999 99999\nshowpage\n');

async function hostileCorpus(): Promise<[string, Buffer][]> {
  const corpus: [string, Buffer][] = [
    ['BMP RLE8 9999²', hostile.rle8Bmp(9999)],
    ['PSD 30000²', hostile.psdOfSize()],
    ['TGA RLE 65535²', hostile.tgaOfSize()],
    ['DDS 16384²', hostile.ddsOfSize()],
    ['GIF 200 frames of 65535²', hostile.gifOfSize()],
    ['SVG 100000²', hostile.svgOfSize(100_000, 100_000)],
    ['PNG IHDR 30000²', await bombPng()],
    ['PDF', PDF],
    ['EPS', EPS],
  ];
  if (hasLibheif) {
    const grid = hostile.heicDeclaring(await heicOf([[96, 96]]), [96, 96], 16_384, 16_384);
    corpus.push(['HEIC grid 16384²', grid]);
  }
  if (hasFfmpeg) corpus.push(['H.264 frames of 8192²', hugeFramesTs()]);
  return corpus;
}

/** Resident memory after a full garbage collection, in MB. */
function settledRssMb() {
  collectGarbage();
  return process.memoryUsage().rss / 1024 / 1024;
}

/**
 * The general defence (issue #30): every bomb of every decoder we run, sent to every image and
 * media route, while this process's event loop is watched. No request may hold the loop for
 * 200 ms, every answer is a 4xx, and memory comes back.
 */
describeEachDatabase('hostile files on every route', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    token = (await registerSubscriber(t)).token;
  }, 60_000);
  afterAll(() => t.close());

  it('never holds the event loop 200 ms, answers each with a 4xx, and gives memory back', async () => {
    const corpus = await hostileCorpus();
    const startMb = settledRssMb();
    const slow: string[] = [];
    const answers: string[] = [];
    for (const [name, content] of corpus)
      for (const route of ROUTES) {
        const what = `${name} → ${route.path} ${JSON.stringify(route.fields)}`;
        const { result: res, maxMs } = await watchLoopTwiceIfSlow(() =>
          postForm(t.app, route.path, {
            token,
            fields: route.fields,
            file: { field: route.field, filename: 'upload', content },
          }),
        );
        if (maxMs >= 200) slow.push(`${what}: ${maxMs.toFixed(0)} ms, twice`);
        if (res.statusCode < 400 || res.statusCode >= 500)
          answers.push(`${what}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    expect(slow).toEqual([]);
    expect(answers).toEqual([]);
    expect(settledRssMb() - startMb).toBeLessThan(100);
  }, 600_000);
});
