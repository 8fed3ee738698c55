import { z } from 'zod';

const engine = z.object({
  available: z.boolean(),
  /** Null when the engine is missing, and for every caller but an admin's session. */
  version: z.string().nullable(),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  db: z.enum(['sqlite', 'postgres']),
  /** Where audio and video jobs wait: in this process, or on Redis for BullMQ workers. */
  queue: z.enum(['local', 'bullmq']),
  /**
   * Admins only: jobs this process runs at once, image work (IMAGE_WORKERS) and audio/video
   * (WORKERS), and the cores they were sized for.
   */
  workers: z
    .object({ image: z.number().int(), media: z.number().int(), cores: z.number().int() })
    .optional(),
  engines: z.object({
    /** `libvips`: null as `version` is. */
    sharp: engine.extend({ libvips: z.string().nullable() }),
    magick: engine,
    ffmpeg: engine,
    chromium: engine,
    /** The face-detection model (loaded on first use; this says it is installed). */
    faces: engine,
    /** The person-segmentation model of remove background (installed; loaded on first use). */
    segmentation: engine,
    /** The super-resolution model of upscale (installed; loaded on first use). */
    superResolution: engine,
    /** libheif's heif-convert and heif-enc (with an HEVC encoder): HEIC/HEIF read and written. */
    libheif: engine,
  }),
});

export type Health = z.infer<typeof healthSchema>;
export type EngineStatus = z.infer<typeof engine>;

const check = z.object({ ok: z.boolean(), reason: z.string().optional() });

/** `GET /api/health/ready`: 200 when every check passes, 503 (with the reasons) otherwise. */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: check,
    /** Absent without REDIS_URL (the embedded queue needs nothing outside the process). */
    queue: check.optional(),
    /** DATA_DIR is the volume every process shares (a marker recorded in the database). */
    dataDir: check,
    /**
     * Every engine installed here answered its probe (ffmpeg, Chromium): one that did not is
     * probed again each minute. An engine not installed at all is no reason to wait.
     */
    engines: check,
  }),
});

export type Readiness = z.infer<typeof readinessSchema>;
