/**
 * What libheif will really decode in a HEIF file, read from the file's own structure: the coded
 * size of every HEVC picture (from its sequence parameter sets) and the canvas of every grid or
 * overlay (from its own data). heif-info reports the `ispe` boxes, which a file may set to
 * anything: a 7200×7200 stream declared as 64×64 decodes at 7200×7200, a grid declared 64×64
 * builds the canvas its data asks for, and every picture in an item's data is decoded, not only
 * the first. Only the boxes libheif 1.15 reads for decoding are read here.
 */

/** The file's structure could not be read as libheif reads it. */
export class HeifStructureError extends Error {}

/** An image coded in a way this count cannot measure (AV1, JPEG, ... inside a HEIF). */
export class HeifUnmeasured extends Error {}

export interface DecodedPixels {
  /** Pixels of every coded picture decoded: tiles and alpha included, each picture counted. */
  coded: number;
  /** Pixels of the images made: each top-level image at its real size (a grid its canvas). */
  canvas: number;
}

/** What decoding a whole file takes, and the top-level images it holds (by item id). */
export interface HeifCount extends DecodedPixels {
  topLevel: number[];
}

const bad = (why: string) => new HeifStructureError(why);

/**
 * Boxes within one box, and items in a file, at most: libheif's own bound on a box's children,
 * which also keeps this count's work small whatever the file.
 */
const MAX_CHILDREN = 20_000;
/** References from one item at most: a grid has at most 256 × 256 tiles. */
const MAX_REFERENCES = 256 * 256;
/** At most this many parameter sets in one item: real files have one. */
const MAX_PARAMETER_SETS = 64;
/** Grids within grids at most (libheif would recurse without end on a loop). */
const MAX_DEPTH = 8;
/** The item types libheif may take for an image (those this count can measure, and others). */
const IMAGE_TYPES = new Set([
  ...['hvc1', 'grid', 'iden', 'iovl'],
  ...['av01', 'avc1', 'vvc1', 'jpeg', 'j2k1', 'unci', 'mski', 'hvt1'],
]);
/** The auxiliary types of an alpha plane, which libheif decodes with its image. */
const ALPHA_TYPES = new Set([
  'urn:mpeg:avc:2015:auxid:1',
  'urn:mpeg:hevc:2015:auxid:1',
  'urn:mpeg:mpegB:cicp:systems:auxiliary:alpha',
]);

/** Reads big-endian fields in order, never past `end`. */
class Reader {
  constructor(
    private readonly buf: Buffer,
    public at: number,
    private readonly end: number,
  ) {}
  private need(bytes: number) {
    if (this.at + bytes > this.end) throw bad('a box ends early');
  }
  u8() {
    this.need(1);
    return this.buf[this.at++]!;
  }
  u16() {
    this.need(2);
    const value = this.buf.readUInt16BE(this.at);
    this.at += 2;
    return value;
  }
  u32() {
    this.need(4);
    const value = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }
  /** An unsigned field of 0, 4 or 8 bytes (iloc's sizes). */
  sized(bytes: number) {
    if (bytes === 0) return 0;
    if (bytes === 4) return this.u32();
    if (bytes !== 8) throw bad(`a field of ${bytes} bytes`);
    this.need(8);
    const value = this.buf.readBigUInt64BE(this.at);
    this.at += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw bad('an offset past any file');
    return Number(value);
  }
  fourcc() {
    this.need(4);
    const value = this.buf.toString('latin1', this.at, this.at + 4);
    this.at += 4;
    return value;
  }
  /** A string ended by a zero byte (or by the box). */
  text() {
    const zero = this.buf.indexOf(0, this.at);
    const stop = zero < 0 || zero > this.end ? this.end : zero;
    const value = this.buf.toString('utf8', this.at, stop);
    this.at = Math.min(this.end, stop + 1);
    return value;
  }
}

interface Box {
  type: string;
  /** Where the box starts (its size, then its type). */
  start: number;
  /** Where the box's content starts (after its header), and where the box ends. */
  body: number;
  end: number;
}

/** The boxes between `from` and `to`. */
function boxes(buf: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  for (let at = from; at + 8 <= to;) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw bad('a box ends early');
      const large = buf.readBigUInt64BE(at + 8);
      if (large > BigInt(to - at)) throw bad('a box runs past its parent');
      size = Number(large);
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw bad('a box runs past its parent');
    found.push({ type, start: at, body: at + header, end: at + size });
    if (found.length > MAX_CHILDREN) throw bad('too many boxes');
    at += size;
  }
  return found;
}

const first = (list: Box[], type: string) => list.find((b) => b.type === type);

/** A box with a version and flags: a reader after them. */
function fullBox(buf: Buffer, box: Box) {
  const reader = new Reader(buf, box.body, box.end);
  const version = reader.u8();
  const flags = (reader.u8() << 16) | reader.u16();
  return { reader, version, flags };
}

interface Item {
  type?: string;
  hidden?: boolean;
  /** Where its data is: byte ranges in the file. */
  extents?: [number, number][];
  properties: number[];
}

/** Items, their data, properties and references, as libheif reads them from `meta`. */
function readMeta(buf: Buffer) {
  const meta = first(boxes(buf, 0, buf.length), 'meta');
  if (!meta) throw bad('no meta box');
  const children = boxes(buf, meta.body + 4, meta.end);
  const items = new Map<number, Item>();
  const item = (id: number) => {
    let found = items.get(id);
    if (!found) items.set(id, (found = { properties: [] }));
    if (items.size > MAX_CHILDREN) throw bad('too many items');
    return found;
  };

  const iinf = first(children, 'iinf');
  if (!iinf) throw bad('no iinf box');
  const list = fullBox(buf, iinf);
  if (list.version === 0) list.reader.u16();
  else list.reader.u32();
  for (const infe of boxes(buf, list.reader.at, iinf.end).filter((b) => b.type === 'infe')) {
    const { reader, version, flags } = fullBox(buf, infe);
    // Versions before 2 name no item type: never an image.
    if (version < 2) continue;
    const id = version === 2 ? reader.u16() : reader.u32();
    reader.u16();
    item(id).type = reader.fourcc();
    item(id).hidden = (flags & 1) === 1;
  }

  const idat = first(children, 'idat');
  const iloc = first(children, 'iloc');
  if (iloc) {
    const { reader, version } = fullBox(buf, iloc);
    if (version > 2) throw bad(`iloc version ${version}`);
    const sizes = reader.u8();
    const more = reader.u8();
    const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
    const indexSize = version >= 1 ? more & 15 : 0;
    const count = version < 2 ? reader.u16() : reader.u32();
    for (let i = 0; i < count; i += 1) {
      const id = version < 2 ? reader.u16() : reader.u32();
      const method = version >= 1 ? reader.u16() & 15 : 0;
      const reference = reader.u16();
      const base = reader.sized(baseSize);
      const extentCount = reader.u16();
      const extents: [number, number][] = [];
      // Construction method 0 is the file, 1 the idat box; libheif reads no other.
      if (reference !== 0 || method > 1 || (method === 1 && !idat))
        throw bad('item data outside the file');
      const [origin, limit] = method === 0 ? [0, buf.length] : [idat!.body, idat!.end];
      for (let e = 0; e < extentCount; e += 1) {
        reader.sized(indexSize);
        const offset = reader.sized(offsetSize);
        const length = reader.sized(lengthSize);
        const start = origin + base + offset;
        // A length of 0 is the rest of the file (or of the idat box).
        const end = length === 0 ? limit : start + length;
        if (start > limit || end > limit) throw bad('item data past the end of the file');
        extents.push([start, end]);
      }
      item(id).extents = extents;
    }
  }

  const references = new Map<string, Map<number, number[]>>();
  const iref = first(children, 'iref');
  if (iref) {
    const { reader, version } = fullBox(buf, iref);
    for (const ref of boxes(buf, reader.at, iref.end)) {
      const r = new Reader(buf, ref.body, ref.end);
      const read = () => (version === 0 ? r.u16() : r.u32());
      const from = read();
      const count = r.u16();
      const to = Array.from({ length: count }, read);
      const byType = references.get(ref.type) ?? new Map<number, number[]>();
      references.set(ref.type, byType);
      const all = byType.get(from) ?? [];
      byType.set(from, all);
      all.push(...to);
      if (all.length > MAX_REFERENCES) throw bad('too many references');
    }
  }

  const properties: Box[] = [];
  const iprp = first(children, 'iprp');
  if (iprp) {
    const inside = boxes(buf, iprp.body, iprp.end);
    const ipco = first(inside, 'ipco');
    if (ipco) properties.push(...boxes(buf, ipco.body, ipco.end));
    for (const ipma of inside.filter((b) => b.type === 'ipma')) {
      const { reader, version, flags } = fullBox(buf, ipma);
      const count = reader.u32();
      for (let i = 0; i < count; i += 1) {
        const id = version < 1 ? reader.u16() : reader.u32();
        const associations = reader.u8();
        for (let a = 0; a < associations; a += 1) {
          const index = flags & 1 ? reader.u16() & 0x7fff : reader.u8() & 0x7f;
          // Index 0 means no property.
          if (index > 0) item(id).properties.push(index - 1);
        }
      }
    }
  }
  return { items, references, properties };
}

/** The bytes of an item's data, its extents in order (never more than the file holds). */
function dataOf(buf: Buffer, item: Item): Buffer {
  const extents = item.extents ?? [];
  const length = extents.reduce((sum, [start, end]) => sum + end - start, 0);
  // Extents may repeat a range: what they add up to is checked before it is gathered.
  if (length > buf.length) throw bad("an image's data repeats itself");
  return Buffer.concat(extents.map(([start, end]) => buf.subarray(start, end)));
}

/** Reads a NAL unit's bits after its two-byte header, emulation prevention bytes removed. */
class Bits {
  private readonly bytes: number[] = [];
  private bit = 0;
  constructor(nal: Buffer) {
    // The fields needed lie in the first hundred bytes or so.
    let zeros = 0;
    for (let i = 2; i < nal.length && this.bytes.length < 256; i += 1) {
      const byte = nal[i]!;
      if (zeros >= 2 && byte === 3) {
        zeros = 0;
        continue;
      }
      zeros = byte === 0 ? zeros + 1 : 0;
      this.bytes.push(byte);
    }
  }
  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i += 1) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw bad('a parameter set ends early');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return value;
  }
  skip(count: number) {
    this.bit += count;
  }
  /** An Exp-Golomb code. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw bad('a parameter set field out of range');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
}

/** The luma size of an HEVC sequence parameter set (H.265 7.3.2.2): its pictures' pixels. */
function spsPixels(nal: Buffer): number {
  const bits = new Bits(nal);
  bits.skip(4); // sps_video_parameter_set_id
  const subLayers = bits.u(3); // sps_max_sub_layers_minus1
  bits.skip(1);
  // profile_tier_level: the general profile and level, then each sub-layer's that are present.
  bits.skip(88 + 8);
  const present = Array.from({ length: subLayers }, () => ({
    profile: bits.u(1),
    level: bits.u(1),
  }));
  if (subLayers > 0) bits.skip(2 * (8 - subLayers));
  for (const layer of present) bits.skip(layer.profile * 88 + layer.level * 8);
  bits.ue(); // sps_seq_parameter_set_id
  if (bits.ue() === 3) bits.skip(1); // chroma_format_idc, separate_colour_plane_flag
  return bits.ue() * bits.ue();
}

interface Nals {
  /** The largest picture any of its sequence parameter sets describes. */
  largest: number;
  /** Pictures begun: slices that are the first of their picture. */
  pictures: number;
  parameterSets: number;
}

/**
 * Walks NAL units as libheif hands them to libde265, each after a 4-byte length (the item's
 * data, and the hvcC's parameter sets, which libheif writes the same way before it).
 */
function walkNal(nal: Buffer, into: Nals) {
  if (nal.length < 3) return;
  const type = (nal[0]! >> 1) & 0x3f;
  if (type === 33) {
    into.parameterSets += 1;
    if (into.parameterSets > MAX_PARAMETER_SETS) throw bad('too many parameter sets');
    into.largest = Math.max(into.largest, spsPixels(nal));
  } else if (type < 32 && nal[2]! & 0x80) into.pictures += 1;
}

function walkData(data: Buffer, into: Nals) {
  for (let at = 0; at + 4 <= data.length;) {
    const length = data.readUInt32BE(at);
    at += 4;
    // libheif refuses a unit that runs past the data, and decodes nothing.
    if (length > data.length - at) break;
    walkNal(data.subarray(at, at + length), into);
    at += length;
  }
}

/** The NAL units of an hvcC box's arrays (after its 22-byte configuration record). */
function walkHvcC(buf: Buffer, box: Box, into: Nals) {
  const reader = new Reader(buf, box.body + 22, box.end);
  const arrays = reader.u8();
  for (let a = 0; a < arrays; a += 1) {
    reader.u8();
    const count = reader.u16();
    for (let n = 0; n < count; n += 1) {
      const length = reader.u16();
      const start = reader.at;
      reader.at += length;
      if (reader.at > box.end) throw bad('a parameter set runs past its box');
      walkNal(buf.subarray(start, start + length), into);
    }
  }
}

/** A grid's or overlay's canvas, from its own data (16- or 32-bit sizes by its flags). */
function canvasOf(data: Buffer, type: 'grid' | 'iovl'): number {
  const reader = new Reader(data, 0, data.length);
  reader.u8();
  const wide = reader.u8() & 1;
  if (type === 'grid') {
    reader.u8();
    reader.u8();
  } else for (let channel = 0; channel < 4; channel += 1) reader.u16();
  const side = () => (wide ? reader.u32() : reader.u16());
  return side() * side();
}

/**
 * What decoding every top-level image of a HEIF file (as heif-info and heif-convert do, each
 * with its alpha plane) makes libheif decode. The top-level images are found as libheif finds
 * them: the images not hidden, less thumbnails and auxiliary images. Throws HeifStructureError
 * for a file libheif would not read as this does, HeifUnmeasured for an image coded otherwise
 * than in HEVC.
 */
export function decodedPixels(buf: Buffer): HeifCount {
  const { items, references, properties } = readMeta(buf);
  const attached = new Set([
    ...(references.get('thmb')?.keys() ?? []),
    ...(references.get('auxl')?.keys() ?? []),
  ]);
  const topLevel = [...items]
    .filter(([id, item]) => IMAGE_TYPES.has(item.type ?? '') && !item.hidden && !attached.has(id))
    .map(([id]) => id)
    .sort((a, b) => a - b);
  const tiles = references.get('dimg') ?? new Map<number, number[]>();
  // An auxiliary image names its master: masters' alpha planes, by master.
  const alphaOf = new Map<number, number[]>();
  for (const [aux, masters] of references.get('auxl') ?? []) {
    const auxC = items
      .get(aux)
      ?.properties.map((index) => properties[index])
      .find((box) => box?.type === 'auxC');
    const auxType = auxC ? fullBox(buf, auxC).reader.text() : '';
    if (!ALPHA_TYPES.has(auxType)) continue;
    for (const master of masters) {
      const planes = alphaOf.get(master) ?? [];
      alphaOf.set(master, planes);
      planes.push(aux);
    }
  }

  const measured = new Map<number, DecodedPixels>();
  let dataRead = 0;
  const measure = (id: number, depth: number): DecodedPixels => {
    const known = measured.get(id);
    if (known) return known;
    if (depth > MAX_DEPTH) throw bad('images derived from each other in a loop');
    const item = items.get(id);
    if (!item?.type) throw bad(`no image ${id}`);
    let result: DecodedPixels;
    if (item.type === 'hvc1') {
      const data = dataOf(buf, item);
      // Distinct items do not share their bytes in any real file: this bounds the work here.
      dataRead += data.length;
      if (dataRead > buf.length) throw bad('images share their data');
      const nals: Nals = { largest: 0, pictures: 0, parameterSets: 0 };
      for (const index of item.properties) {
        const property = properties[index];
        if (property?.type === 'hvcC') walkHvcC(buf, property, nals);
      }
      walkData(data, nals);
      result = { coded: nals.largest * nals.pictures, canvas: nals.largest };
    } else if (item.type === 'grid' || item.type === 'iovl' || item.type === 'iden') {
      const parts = (tiles.get(id) ?? []).map((tile) => measure(tile, depth + 1));
      const coded = parts.reduce((sum, part) => sum + part.coded, 0);
      const canvas =
        item.type === 'iden'
          ? Math.max(0, ...parts.map((part) => part.canvas))
          : canvasOf(dataOf(buf, item), item.type);
      result = { coded, canvas };
    } else throw new HeifUnmeasured(`an image coded as ${item.type}`);
    measured.set(id, result);
    return result;
  };

  const total: HeifCount = { coded: 0, canvas: 0, topLevel };
  for (const id of topLevel) {
    const image = measure(id, 0);
    total.coded += image.coded;
    total.canvas += image.canvas;
    for (const alpha of alphaOf.get(id) ?? []) total.coded += measure(alpha, 0).coded;
  }
  return total;
}

/** The ICC colour profiles of a HEIF file: the one an item carries, and a copy of the file without any. */
export interface HeifProfiles {
  /** The ICC profile of the item asked for (`colr` of type `prof` or `rICC`), if it has one. */
  profile?: Buffer;
  /** The file with every ICC `colr` box turned into a `free` box of the same size. */
  withoutProfiles: Buffer;
}

const ICC_COLOUR_TYPES = new Set(['prof', 'rICC']);

/**
 * Takes the ICC profiles out of a HEIF file. heif-convert writes each image's profile into its
 * PNG, and libpng refuses some common ones (HP's sRGB profile of 1998, which most cameras and
 * editors embed, is a "known incorrect sRGB profile"), so the file is decoded without them and
 * the profile of `itemId` is given back to the decoded image. A `free` box keeps every property's
 * place, so the item associations stay as they were.
 */
export function heifProfiles(buf: Buffer, itemId: number): HeifProfiles {
  const { items, properties } = readMeta(buf);
  const isIcc = (box: Box) =>
    box.type === 'colr' && ICC_COLOUR_TYPES.has(buf.toString('latin1', box.body, box.body + 4));
  const own = items
    .get(itemId)
    ?.properties.map((index) => properties[index])
    .find((box) => box !== undefined && isIcc(box));
  const withoutProfiles = Buffer.from(buf);
  for (const box of properties.filter(isIcc))
    withoutProfiles.write('free', box.start + 4, 'latin1');
  return { profile: own && buf.subarray(own.body + 4, own.end), withoutProfiles };
}
