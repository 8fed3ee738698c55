import { createReadStream } from 'node:fs';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Markers of playlists and scripts, wherever they hide (an HLS playlist inside an AVI, say). */
const INDIRECTIONS = ['#EXTM3U', '#EXT-X-', 'ffconcat version'].map((s) => Buffer.from(s));
const LONGEST = Math.max(...INDIRECTIONS.map((b) => b.length));

/**
 * Passes bytes through unchanged while looking for the markers, keeping an overlap so one
 * split across chunks is found. Put in an upload's pipeline to disk, it checks the file in
 * the same read that stores it, instead of reading the stored file again before the probe
 * (a 53 MB WAV took a whole second pass; bench/results/media-convert.md).
 */
export class IndirectionScanner extends Transform {
  found = false;
  private tail = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    if (!this.found) {
      const window = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
      this.found = INDIRECTIONS.some((marker) => window.includes(marker));
      this.tail = Buffer.from(window.subarray(Math.max(0, window.length - (LONGEST - 1))));
    }
    done(null, chunk);
  }
}

/** The same scan over a stored file, for one that did not come through an upload. */
export async function containsIndirection(path: string): Promise<boolean> {
  const scanner = new IndirectionScanner();
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), scanner, discard);
  return scanner.found;
}
