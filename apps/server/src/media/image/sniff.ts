import { open } from 'node:fs/promises';

/** Input formats we accept, decided from the bytes (never the name or the MIME header). */
export type InputFormat =
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'webp'
  | 'tiff'
  | 'avif'
  | 'heif'
  | 'bmp'
  | 'ico'
  | 'cur'
  | 'psd'
  | 'dds'
  | 'pcx'
  | 'tga'
  | 'svg'
  | 'ppm'
  | 'pgm'
  | 'pbm';

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

function isoBrand(head: Buffer): InputFormat | undefined {
  if (ascii(head, 4, 8) !== 'ftyp') return undefined;
  const brands = ascii(head, 8, 12) + ascii(head, 16, 32);
  if (/avi[fs]/.test(brands)) return 'avif';
  if (/hei[cfmsx]|mif1|msf1/.test(brands)) return 'heif';
  return undefined;
}

/** A TGA has no magic number: check that its header fields are all plausible. */
function looksLikeTga(head: Buffer, size: number): boolean {
  if (size < 18) return false;
  const colorMapType = head[1]!;
  const imageType = head[2]!;
  const width = head.readUInt16LE(12);
  const height = head.readUInt16LE(14);
  const depth = head[16]!;
  return (
    colorMapType <= 1 &&
    [1, 2, 3, 9, 10, 11].includes(imageType) &&
    width > 0 &&
    height > 0 &&
    [8, 15, 16, 24, 32].includes(depth)
  );
}

export function sniffBytes(head: Buffer, size: number): InputFormat | undefined {
  if (head.length < 4) return undefined;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (ascii(head, 0, 4) === 'GIF8') return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return 'tiff';
  if (ascii(head, 0, 2) === 'BM') return 'bmp';
  // Netpbm: P1/P4 bitmap, P2/P5 graymap, P3/P6 pixmap, then whitespace before the width.
  if (head[0] === 0x50 && /^P[1-6]\s/.test(ascii(head, 0, 3)))
    return (['pbm', 'pgm', 'ppm'] as const)[(head[1]! - 0x31) % 3];
  if (ascii(head, 0, 4) === '8BPS') return 'psd';
  if (ascii(head, 0, 4) === 'DDS ') return 'dds';
  if (
    head[0] === 0 &&
    head[1] === 0 &&
    (head[2] === 1 || head[2] === 2) &&
    head[3] === 0 &&
    head.length >= 6 &&
    head.readUInt16LE(4) > 0
  ) {
    return head[2] === 1 ? 'ico' : 'cur';
  }
  if (head[0] === 0x0a && [0, 2, 3, 4, 5].includes(head[1]!) && head[2] === 1) return 'pcx';
  const iso = isoBrand(head);
  if (iso) return iso;
  const text = ascii(head, 0, Math.min(head.length, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (
    (text.startsWith('<?xml') || text.startsWith('<svg') || text.startsWith('<!--')) &&
    /<svg[\s>]/i.test(text)
  )
    return 'svg';
  if (looksLikeTga(head, size)) return 'tga';
  return undefined;
}

/** Reads the first bytes of a file and names its format, or undefined when it is no image we take. */
export async function sniffFile(path: string): Promise<InputFormat | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(4096, size));
    await file.read(head, 0, head.length, 0);
    return sniffBytes(head, size);
  } finally {
    await file.close();
  }
}
