import { crc32 } from 'node:zlib';
import { pngBytes } from '../test/image-fixtures.js';

/** Files that attack image converters, each the shape of a published exploit. */

/** ImageMagick's own vector language, fetching a URL and shelling out (ImageTragick, CVE-2016-3714). */
export const mvg = (url: string) =>
  Buffer.from(
    `push graphic-context\nviewbox 0 0 640 480\nfill 'url(${url}"|touch "/tmp/refract-pwned)'\npop graphic-context\n`,
  );

/** MVG pulling other ImageMagick coders: ephemeral: deletes the file it reads, label:@ prints one. */
export const mvgWith = (coder: string) =>
  Buffer.from(
    `push graphic-context\nviewbox 0 0 640 480\nimage over 0,0 0,0 '${coder}'\npop graphic-context\n`,
  );

/** ImageMagick's scripting language: read a local file, write another. */
export const msl = (read: string, write: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<image>\n<read filename="${read}" />\n<write filename="${write}" />\n</image>\n`,
  );

/** Entities that expand to gigabytes ("billion laughs"). */
export const billionLaughs = () => {
  const levels = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
  ).join('');
  return Buffer.from(
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY l0 "lol">${levels}]>` +
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><text y="10">&l9;</text></svg>',
  );
};

/** An SVG drawing an image from elsewhere over a white page. */
export const svgWithHref = (href: string) =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20">' +
      `<rect width="20" height="20" fill="white"/><image href="${href}" xlink:href="${href}" width="20" height="20"/>` +
      `<rect width="1" height="1" fill="url(${href})"/></svg>`,
  );

/** An SVG given a style sheet by an `<?xml-stylesheet?>` processing instruction. */
export const svgWithStylesheet = (href: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<?xml-stylesheet type="text/css" href="${href}"?>\n` +
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="white"/></svg>',
  );

/** An SVG whose style sheet says `css` (a reference spelled with escapes, comments, ...). */
export const svgWithCss = (css: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><style>${css}</style>` +
      '<rect class="x" width="20" height="20" fill="white"/></svg>',
  );

/** A few bytes of SVG that draw as `width`×`height` pixels. */
export const svgOfSize = (width: number, height: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%"/></svg>`,
  );

/** A PNG with a tEXt "profile" chunk naming a local file (CVE-2022-44268). */
export async function pngAskingForFile(path: string) {
  const png = Buffer.from(await pngBytes(8, 8));
  const data = Buffer.concat([Buffer.from('tEXtprofile\0'), Buffer.from(path)]);
  const chunk = Buffer.alloc(data.length + 8);
  chunk.writeUInt32BE(data.length - 4, 0);
  data.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(data), data.length + 4);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** A valid PNG that is also an HTML page with a script (a polyglot). */
export async function pngHtmlPolyglot() {
  return Buffer.concat([
    await pngBytes(8, 8),
    Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
  ]);
}
