import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { MB } from '@refract/contracts';

/**
 * The only reader of process.env. Every variable is validated at start-up; a bad value
 * stops the process with a message that names the variable.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const optionalUrl = (protocols: string[]) =>
  optionalText.refine(
    (value) => value === undefined || protocols.some((p) => value.startsWith(`${p}://`)),
    { message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}` },
  );

const wholeNumber = z.coerce
  .number({ message: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must be a whole number');

/** Scheme, host and optional port: what a browser sends in Origin. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;

/**
 * A JWT_SECRET copied from a sample file is public: whoever has read that file can sign tokens
 * for any account, admins included. Sample values announce themselves with these words (letters
 * and digits compared, case folded: "change-me", "CHANGE_ME" and "changeme" are one); 64 random
 * base64 characters hold one by chance less than once in 500 million, and then start-up says so.
 * Fewer than 6 distinct characters ("xxxx…", "0000…") is refused too: 32 random characters of
 * hex or wider come to that less than once in a trillion. Unset, the secret is generated into
 * DATA_DIR/jwt-secret, which every process shares, so leaving it out is the safe default.
 */
const PLACEHOLDER_WORDS = ['changeme', 'replaceme', 'placeholder', 'example'];

function isPlaceholderSecret(value: string): boolean {
  const folded = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  return PLACEHOLDER_WORDS.some((word) => folded.includes(word)) || new Set(value).size < 6;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ message: 'must be a whole number from 0 to 65535' })
    .int('must be a whole number from 0 to 65535')
    .min(0, 'must be a whole number from 0 to 65535')
    .max(65535, 'must be a whole number from 0 to 65535')
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  // Prometheus metrics (docs/operations.md): off unless one is set. METRICS_TOKEN opens
  // GET /metrics on the app's port to that bearer token; METRICS_PORT serves them on a port of
  // their own, on METRICS_HOST (loopback unless changed; then it asks for the token too).
  METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  METRICS_PORT: z.coerce
    .number({ message: 'must be a whole number from 1 to 65535' })
    .int('must be a whole number from 1 to 65535')
    .min(1, 'must be a whole number from 1 to 65535')
    .max(65535, 'must be a whole number from 1 to 65535')
    .optional(),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  JWT_SECRET: optionalText
    .refine((v) => v === undefined || v.length >= 32, {
      message: 'must be at least 32 characters',
    })
    .refine((v) => v === undefined || v.length < 32 || !isPlaceholderSecret(v), {
      message:
        'is a sample value, not a secret: set a random one (openssl rand -base64 48), or unset it to have one generated into DATA_DIR/jwt-secret',
    }),
  PUBLIC_URL: optionalUrl(['http', 'https']),
  // Other sites whose scripts may call the API, comma-separated (https://app.example.com); none by default.
  CORS_ORIGINS: optionalText.refine(
    (v) => v === undefined || v.split(',').every((o) => ORIGIN.test(o.trim())),
    { message: 'must be origins like https://app.example.com, comma-separated' },
  ),
  // Seconds a request body may take to arrive in all, and may stall without a byte (then 408).
  UPLOAD_TIMEOUT: wholeNumber.min(1, 'must be at least 1').default(600),
  UPLOAD_IDLE_TIMEOUT: wholeNumber.min(1, 'must be at least 1').default(30),
  // Sign-ups allowed per client (IPv4 address or IPv6 /64) per hour; each account has free uses.
  SIGN_UP_LIMIT: wholeNumber.min(1, 'must be at least 1').default(10),
  ADMIN_EMAIL: optionalText,
  ADMIN_PASSWORD: optionalText,
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  // Another address for Stripe's API (stripe-mock, or the tests' local fake).
  STRIPE_API_URL: optionalUrl(['http', 'https']),
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  CHROMIUM_PATH: z.string().trim().min(1).default('chromium'),
  CONTACT_URL: optionalUrl(['http', 'https']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: optionalText,
  // Behind a reverse proxy: "true", or the proxy addresses (comma-separated, CIDR allowed). Off by default, since
  // trusting X-Forwarded-For from anyone would let a client pick its own IP for rate limits.
  TRUST_PROXY: optionalText,
  // Audio and video jobs this process runs at once (default half the cores: ffmpeg uses several
  // threads per job); 0 leaves them to `npm run worker` processes.
  WORKERS: wholeNumber.optional(),
  // Image work this process runs at once, batch files and single requests alike (default one per
  // core: WebP, AVIF and palette PNG encodes use one core each, so fewer leaves cores idle).
  IMAGE_WORKERS: wholeNumber.min(1, 'must be at least 1').optional(),
  // Jobs allowed to wait; past it new ones get 503 server_busy.
  JOB_QUEUE_LIMIT: wholeNumber.default(20),
  // Seconds a finished job's result is kept for download.
  RESULT_TTL: wholeNumber.min(1, 'must be at least 1').default(3600),
  // Megabytes one user's kept results and unfinished uploads may occupy; a new result evicts that
  // user's oldest ones. Also the largest audio or video file any plan may promise: 4 GB, the
  // seeded Business plan's.
  RESULT_DISK_PER_USER: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .positive('must be a number of megabytes above 0')
    .default(4000),
  // Audio and video bombs (docs/security.md). A job whose output would pass MEDIA_MAX_OUTPUT_MB is
  // refused before it starts, and stopped if it gets there while writing: 4000 lets the largest
  // file a seeded plan takes (4 GB) be converted to the same size, and is six hours of
  // CD-quality WAV. Frames above MEDIA_MAX_PIXELS (4096×2304,
  // DCI 4K and 16:9 4K) and files longer than MEDIA_MAX_DURATION seconds (10 hours) are refused.
  MEDIA_MAX_OUTPUT_MB: wholeNumber.min(1, 'must be at least 1').default(4000),
  MEDIA_MAX_PIXELS: wholeNumber.min(1, 'must be at least 1').default(4096 * 2304),
  MEDIA_MAX_DURATION: wholeNumber.min(1, 'must be at least 1').default(36_000),
  // Seconds a stopping process (SIGTERM) gives requests and running jobs to finish; then requests
  // are answered 503 and jobs handed back to the queue. Below the usual 30 s of orchestrators.
  SHUTDOWN_TIMEOUT: wholeNumber.default(25),
  // Seconds one PostgreSQL query may take before it is cancelled (the request then gets 503
  // service_unavailable); connecting waits 5 s. Below SHUTDOWN_TIMEOUT and orchestrators' 30 s.
  DB_QUERY_TIMEOUT: wholeNumber.min(1, 'must be at least 1').default(20),
  // Seconds a starting process waits for a database that does not answer yet.
  DB_CONNECT_TIMEOUT: wholeNumber.default(30),
  // Seconds after which files under DATA_DIR that no job or request owns (left by a crashed
  // process) are removed; at least UPLOAD_TIMEOUT, so no live upload is touched.
  LEFTOVER_GRACE: wholeNumber.optional(),
  // The BullMQ queue's name, so several installations can share one Redis.
  QUEUE_NAME: z
    .string()
    .trim()
    .regex(/^[\w-]{1,64}$/, 'must be letters, digits, - or _')
    .default('refract-jobs'),
});

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

const SECRET_VARIABLE = /SECRET|PASSWORD|KEY|_URL$/;

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * `cores`: what the defaults are sized for (this machine's by default; tests pass their own).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cores: number = availableParallelism(),
) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // Show what was given, except where the value may be or contain a credential.
      const shown = SECRET_VARIABLE.test(name) ? '' : ` (got ${JSON.stringify(env[name])})`;
      return `  ${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const workers = e.WORKERS ?? Math.max(1, Math.floor(cores / 2));
  if (e.PAYMENT_PROVIDER === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid environment configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required when PAYMENT_PROVIDER=stripe',
    );
  }
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError(
      'Invalid environment configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  }
  if (e.LEFTOVER_GRACE !== undefined && e.LEFTOVER_GRACE < e.UPLOAD_TIMEOUT) {
    throw new ConfigError(
      'Invalid environment configuration:\n  LEFTOVER_GRACE must be at least UPLOAD_TIMEOUT: a live upload must never look left over',
    );
  }
  if (workers === 0 && !e.REDIS_URL) {
    throw new ConfigError(
      'Invalid environment configuration:\n  WORKERS=0 needs REDIS_URL: without a queue on Redis nothing would run the jobs',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT * 1000,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT * 1000,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    corsOrigins: e.CORS_ORIGINS?.split(',').map((o) => o.trim()) ?? [],
    signUpsPerHour: e.SIGN_UP_LIMIT,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT * 1000,
    leftoverGraceMs: (e.LEFTOVER_GRACE ?? e.UPLOAD_TIMEOUT + 300) * 1000,
    uploadTimeouts: { totalMs: e.UPLOAD_TIMEOUT * 1000, idleMs: e.UPLOAD_IDLE_TIMEOUT * 1000 },
    admin: e.ADMIN_EMAIL ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD! } : undefined,
    payments: {
      provider: e.PAYMENT_PROVIDER,
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: e.STRIPE_API_URL,
      // The test checkout grants paid plans to anyone with the test card: a loud warning.
      sandboxInProduction: e.NODE_ENV === 'production' && e.PAYMENT_PROVIDER === 'sandbox',
    },
    engines: { ffmpeg: e.FFMPEG_PATH, ffprobe: e.FFPROBE_PATH, chromium: e.CHROMIUM_PATH },
    contactUrl: e.CONTACT_URL,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    jobs: {
      workers,
      imageWorkers: e.IMAGE_WORKERS ?? Math.max(1, cores),
      cores,
      queueLimit: e.JOB_QUEUE_LIMIT,
      resultTtlMs: e.RESULT_TTL * 1000,
      resultBytesPerUser: Math.floor(e.RESULT_DISK_PER_USER * MB),
      queueName: e.QUEUE_NAME,
    },
    media: {
      maxOutputBytes: e.MEDIA_MAX_OUTPUT_MB * MB,
      maxPixels: e.MEDIA_MAX_PIXELS,
      maxDurationSeconds: e.MEDIA_MAX_DURATION,
    },
  };
}
