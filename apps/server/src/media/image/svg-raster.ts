import { createRequire } from 'node:module';
import { AppError } from '../../lib/app-error.js';
import { runBounded } from '../bounded-process.js';

/**
 * SVG is drawn by librsvg in a child process, never in the server's own libvips: one render is
 * a single libvips operation, which neither sharp's timeout nor an aborted request can stop, so
 * a 339-byte SVG of filters (feTurbulence, feMorphology) held a slot for a quarter of an hour
 * at 3.7 GB. The child is killed when its slot's signal aborts (the request went, or the slot
 * limit passed), and its address space is bounded, so its memory goes with it either way. The
 * result is a libvips-native `.v` file beside the upload, which every tool reads as a raster.
 */

/** Address space of the drawing process: a 100 MP SVG with a filter draws in about 1.2 GB. */
const RASTER_MEMORY = 2 * 1024 ** 3;

/**
 * Filtered pixels a drawing may cost: the SVG's pixels times its filter primitives. librsvg
 * keeps a surface the size of the filter region for each primitive's result, so this bounds
 * the memory filters take (about 4 bytes each, plus the region's margin). A poster of 4000×3000
 * with a drop shadow (three primitives) costs 36 M; 9000×9000 with three costs 243 M.
 */
export const FILTER_PIXEL_BUDGET = 100_000_000;

/** Elements that start a filter primitive; light sources, transfer functions and merge nodes only configure one. */
const PRIMITIVE =
  /<(?:[\w.-]+:)?fe(?!Func[RGBA]\b|MergeNode\b|DistantLight\b|PointLight\b|SpotLight\b)[A-Z][\w-]*/g;

/** How many filter primitives the SVG's text holds (each use of a filter draws them all). */
export const filterPrimitives = (text: string) => text.match(PRIMITIVE)?.length ?? 0;

export const filtersTooCostly = () =>
  new AppError(
    422,
    'image_too_large',
    `This SVG's filters would draw more than ${FILTER_PIXEL_BUDGET / 1_000_000} megapixels; draw it smaller or with fewer filter effects`,
  );

/** A marker in the child's arguments, so tests (and an operator's `ps`) can find it. */
export const RASTER_MARK = 'refract-svg-raster';

// The child runs sharp alone, one libvips thread, no cache: it draws one file and exits. It
// hands librsvg the bytes, not the path, so the drawing has no base folder to resolve against.
const CHILD = `
const sharp = require(process.argv[1]);
sharp.concurrency(1);
sharp.cache(false);
sharp(require('node:fs').readFileSync(process.argv[2]), { limitInputPixels: Number(process.argv[4]), failOn: 'error' })
  .toFile(process.argv[3])
  .then(() => process.exit(0), (err) => { process.stderr.write(String(err.message)); process.exit(1); });
`;

const sharpEntry = createRequire(import.meta.url).resolve('sharp');

/**
 * Draws the SVG at `input` (already checked for references) into `output` (a `.v` file) at its
 * own size, in a child process ended when `signal` aborts. Rejects with sharp's message when
 * the SVG cannot be drawn, or with the signal's reason.
 */
export async function rasterizeSvg(
  input: string,
  output: string,
  maxPixels: number,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const args = ['-e', CHILD, sharpEntry, input, output, String(maxPixels), RASTER_MARK];
  const drawn = await runBounded(process.execPath, args, {
    signal,
    memoryBytes: RASTER_MEMORY,
    maxBuffer: 64 * 1024,
  });
  if (signal.aborted) throw signal.reason;
  // Killed by the address-space bound, or sharp's own words.
  if (drawn.failed) throw new Error(drawn.stderr || 'the SVG could not be drawn');
}
