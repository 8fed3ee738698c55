/**
 * Turns an ICO file into a CUR file: the same directory and images, with the header's type 2
 * (cursor) and, in each entry, a hotspot where an icon has its planes and bit count. The
 * hotspot is the top-left pixel, where an arrow cursor points; the image data is untouched.
 */
export function toCursor(ico: Buffer, hotspot = { x: 0, y: 0 }): Buffer {
  const cur = Buffer.from(ico);
  if (cur.length < 6 || cur.readUInt16LE(0) !== 0 || cur.readUInt16LE(2) !== 1)
    throw new Error('Not an ICO file');
  const count = cur.readUInt16LE(4);
  cur.writeUInt16LE(2, 2);
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    cur.writeUInt16LE(hotspot.x, entry + 4);
    cur.writeUInt16LE(hotspot.y, entry + 6);
  }
  return cur;
}
