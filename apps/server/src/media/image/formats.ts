import type { FormatInfo, ImageFormat } from '@refract/contracts';
import { IMAGE_FORMATS } from '@refract/contracts';
import type { Engines } from '../engines.js';
import { canRead } from './pipeline.js';

export type OutputEngine = 'sharp' | 'magick' | 'ffmpeg' | 'potrace' | 'libheif' | 'none';

interface OutputFormat {
  engine: OutputEngine;
  extension: string;
  contentType: string;
  /** Why it cannot be written, when engine is none. */
  reason?: string;
}

/** How each target format is produced. Nothing is ever sent under a wrong extension. */
export const OUTPUTS: Record<ImageFormat, OutputFormat> = {
  jpeg: { engine: 'sharp', extension: 'jpeg', contentType: 'image/jpeg' },
  jpg: { engine: 'sharp', extension: 'jpg', contentType: 'image/jpeg' },
  png: { engine: 'sharp', extension: 'png', contentType: 'image/png' },
  webp: { engine: 'sharp', extension: 'webp', contentType: 'image/webp' },
  avif: { engine: 'sharp', extension: 'avif', contentType: 'image/avif' },
  tiff: { engine: 'sharp', extension: 'tiff', contentType: 'image/tiff' },
  gif: { engine: 'sharp', extension: 'gif', contentType: 'image/gif' },
  bmp: { engine: 'magick', extension: 'bmp', contentType: 'image/bmp' },
  ico: { engine: 'magick', extension: 'ico', contentType: 'image/vnd.microsoft.icon' },
  cur: { engine: 'magick', extension: 'cur', contentType: 'image/x-win-bitmap' },
  pcx: { engine: 'magick', extension: 'pcx', contentType: 'image/vnd.zbrush.pcx' },
  tga: { engine: 'magick', extension: 'tga', contentType: 'image/x-tga' },
  psd: { engine: 'magick', extension: 'psd', contentType: 'image/vnd.adobe.photoshop' },
  dds: { engine: 'magick', extension: 'dds', contentType: 'image/vnd.ms-dds' },
  eps: { engine: 'magick', extension: 'eps', contentType: 'application/postscript' },
  pdf: { engine: 'magick', extension: 'pdf', contentType: 'application/pdf' },
  ppm: { engine: 'magick', extension: 'ppm', contentType: 'image/x-portable-pixmap' },
  pgm: { engine: 'magick', extension: 'pgm', contentType: 'image/x-portable-graymap' },
  pbm: { engine: 'magick', extension: 'pbm', contentType: 'image/x-portable-bitmap' },
  mp4: { engine: 'ffmpeg', extension: 'mp4', contentType: 'video/mp4' },
  webm: { engine: 'ffmpeg', extension: 'webm', contentType: 'video/webm' },
  mov: { engine: 'ffmpeg', extension: 'mov', contentType: 'video/quicktime' },
  heif: { engine: 'libheif', extension: 'heif', contentType: 'image/heif' },
  heic: { engine: 'libheif', extension: 'heic', contentType: 'image/heic' },
  svg: { engine: 'potrace', extension: 'svg', contentType: 'image/svg+xml' },
  xcf: {
    engine: 'none',
    extension: 'xcf',
    contentType: 'image/x-xcf',
    reason: 'No library can write GIMP XCF files',
  },
  cdr: {
    engine: 'none',
    extension: 'cdr',
    contentType: 'application/vnd.corel-draw',
    reason: 'No library can write CorelDRAW files',
  },
};

export function canWrite(format: ImageFormat, engines: Engines): boolean {
  const { engine } = OUTPUTS[format];
  if (engine === 'none') return false;
  // potrace is pure JavaScript from npm: always there.
  return engine === 'potrace' || engines[engine].available;
}

/** Whether uploads in this format are decoded here: HEIC/HEIF only with libheif installed. */
export function canReadHere(format: ImageFormat, engines: Engines): boolean {
  if (format === 'heif' || format === 'heic') return engines.libheif.available;
  return format === 'jpg' || canRead(format);
}

export function formatTable(engines: Engines): FormatInfo[] {
  return IMAGE_FORMATS.map((format) => {
    const write = canWrite(format, engines);
    const { engine, reason } = OUTPUTS[format];
    return {
      format,
      read: canReadHere(format, engines),
      write,
      ...(write
        ? {}
        : { reason: reason ?? `The ${engine} engine is not installed on this server` }),
    };
  });
}
