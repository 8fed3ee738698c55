import sharp from 'sharp';
import { setImageSlots } from './slots.js';

/**
 * libvips' operation cache, sized on purpose: every upload is a different file, so a hit only
 * ever serves the same request opening its input again (blur face, watermark). sharp's default
 * (50 MB, 20 open files) held decoded images and handles of deleted uploads between requests.
 */
export const SHARP_CACHE = { memory: 16, files: 0, items: 20 };

/**
 * Sizes image work to the machine at start-up: IMAGE_WORKERS pipelines at once (slots.ts), and
 * libvips' own threads per pipeline so that together they fill the cores without two encodes
 * fighting for one (2 cores, 2 workers: 1 thread each; 8 cores, 2 workers: 4 each).
 */
export function configureImageWork(settings: { imageWorkers: number; cores: number }) {
  setImageSlots(settings.imageWorkers);
  sharp.concurrency(Math.max(1, Math.floor(settings.cores / settings.imageWorkers)));
  sharp.cache(SHARP_CACHE);
}
