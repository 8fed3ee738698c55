import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { containsIndirection, IndirectionScanner } from './indirections.js';

/** Streams `chunks` through a scanner; returns what it found and the bytes that came out. */
async function scan(chunks: Buffer[]) {
  const scanner = new IndirectionScanner();
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.push(chunk);
      done();
    },
  });
  await pipeline(Readable.from(chunks), scanner, sink);
  return { found: scanner.found, bytes: Buffer.concat(out) };
}

const noise = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));

describe('the playlist scan made while an upload streams', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-scan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes every byte through unchanged', async () => {
    const chunks = [noise(1000, 1), noise(70_000, 2), noise(3, 3)];
    const { found, bytes } = await scan(chunks);
    expect(found).toBe(false);
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
  });

  it.each(['#EXTM3U', '#EXT-X-', 'ffconcat version'])(
    'finds %s in the middle of a file, and split across two chunks at every offset',
    async (marker) => {
      expect((await scan([noise(5000, 4), Buffer.from(marker), noise(5000, 5)])).found).toBe(true);
      for (let cut = 1; cut < marker.length; cut += 1) {
        const chunks = [
          Buffer.concat([noise(4096, 6), Buffer.from(marker.slice(0, cut))]),
          Buffer.from(marker.slice(cut)),
          noise(10, 7),
        ];
        expect((await scan(chunks)).found, `cut at ${cut}`).toBe(true);
      }
      // Split over three chunks, the middle one shorter than the marker.
      const third = Math.ceil(marker.length / 3);
      const parts = [0, 1, 2].map((i) => Buffer.from(marker.slice(i * third, (i + 1) * third)));
      expect((await scan([noise(100, 8), ...parts, noise(100, 9)])).found).toBe(true);
    },
  );

  it('agrees with the scan of a stored file', async () => {
    const clean = join(dir, 'clean');
    const hidden = join(dir, 'hidden');
    writeFileSync(clean, noise(3 * 1024 * 1024, 10));
    writeFileSync(hidden, Buffer.concat([noise(2 * 1024 * 1024 - 3, 11), Buffer.from('#EXTM3U')]));
    expect(await containsIndirection(clean)).toBe(false);
    expect(await containsIndirection(hidden)).toBe(true);
  });
});
