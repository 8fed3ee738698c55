import sharp from 'sharp';
import yauzl from 'yauzl';

/**
 * A photo-like JPEG for upload: grain at quality 100, so Compress has something to save and
 * every tool sees a real image. Its size makes each one different.
 */
export async function grainyJpeg(
  name: string,
  size: { width: number; height: number; mean: number },
) {
  const buffer = await sharp({
    create: {
      width: size.width,
      height: size.height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: size.mean, sigma: 30 },
    },
  })
    .jpeg({ quality: 100 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** The names of a downloaded zip's entries, in order. */
export function zipNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

/** Each zip entry's bytes, in order. */
export function zipContents(path: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries: Buffer[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(error);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.push(Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}
