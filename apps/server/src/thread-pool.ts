import { IMAGE_SLOTS } from './media/image/slots.js';

/**
 * Imported first by each entry point, before anything can touch libuv's thread pool (which is
 * sized once, on first use). The pool is shared by file I/O, DNS, zlib, crypto and sharp: four
 * threads for the rest, plus one for each image pipeline that may run at once, so image work can
 * never leave uploads waiting. An operator's own UV_THREADPOOL_SIZE wins. This is the one place
 * that writes the environment; config.ts still reads it.
 */
process.env.UV_THREADPOOL_SIZE ??= String(4 + IMAGE_SLOTS);
