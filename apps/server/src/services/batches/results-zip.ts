import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

/** The trailing entry that names results which were gone when their turn came. */
export const NOT_INCLUDED_NAME = 'NOT INCLUDED.txt';

export interface ZipSource {
  /** The entry's name in the zip. */
  name: string;
  /** Where the result is on disk; it may vanish at any time (expired, evicted). */
  path: string;
}

/**
 * The files as one stored zip, written as it is read. Each file is opened only when its turn
 * comes, and added to the zip only once it is open: an open file stays readable after it is
 * deleted, so a result evicted or expired mid-download is still sent whole, and one already gone
 * is left out and named in a trailing entry. Any error ends this download's stream, never the
 * process (yazl emits `error` with no listener of its own).
 */
export function zipFiles(sources: ZipSource[], mtime = new Date()): Readable {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  let reading: Readable | undefined;
  zip.on('error', (err: Error) => output.destroy(err));
  // A client that leaves stops the file being read, which would otherwise wait for it forever.
  output.once('close', () => reading?.destroy());

  const write = async () => {
    const missing: string[] = [];
    for (const { name, path } of sources) {
      if (output.destroyed) return;
      const handle = await open(path).catch(() => undefined);
      if (!handle) {
        missing.push(name);
        continue;
      }
      reading = handle.createReadStream();
      reading.once('error', (err) => output.destroy(err));
      zip.addReadStream(reading, name, { compress: false, mtime });
      // One file at a time: the next is opened once this one has been read to the end.
      await finished(reading).catch(() => undefined);
    }
    if (output.destroyed) return;
    if (missing.length > 0) zip.addBuffer(notIncludedText(missing), uniqueName(sources), { mtime });
    zip.end();
  };
  write().catch((err: Error) => output.destroy(err));
  return output;
}

function notIncludedText(names: string[]) {
  return Buffer.from(
    [
      'These results had expired or been replaced by newer ones before the download reached them:',
      ...names.map((name) => `- ${name}`),
      '',
    ].join('\n'),
  );
}

/** The trailing entry's name, never one a result already has. */
function uniqueName(sources: ZipSource[]) {
  const taken = new Set(sources.map((s) => s.name));
  let name = NOT_INCLUDED_NAME;
  for (let n = 2; taken.has(name); n += 1) name = `NOT INCLUDED (${n}).txt`;
  return name;
}
