import type { ErrorCode } from '@refract/contracts';
import type { ZodType } from 'zod';

/** What a route tells the OpenAPI document beyond its zod schemas (see openapi/describe-route.ts). */
export interface RouteDocs {
  /** Error codes the route answers with, beyond those its guard and schemas already imply. */
  errors?: readonly ErrorCode[];
  /** A multipart/form-data upload: the file part's name, its size limit and the text fields' schema. */
  upload?: {
    fileField: string;
    /** Absent: the user's plan sets it (audio and video tools). */
    maxBytes?: number;
    fields: ZodType;
    /** Optional second file parts (e.g. watermark's logo). */
    extraFiles?: readonly {
      field: string;
      maxBytes: number;
      requiredWhen?: { field: string; equals: string };
    }[];
  };
  /** The success answer is a file or a stream rather than JSON. */
  produces?: { status?: number; contentTypes: readonly string[]; description: string };
  /** The answer carries the X-Quota-* headers (a use is charged). */
  metered?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    errors?: RouteDocs['errors'];
    upload?: RouteDocs['upload'];
    produces?: RouteDocs['produces'];
    metered?: RouteDocs['metered'];
  }
}

/** The error codes every image tool may answer with, beyond the guard's. */
export const IMAGE_TOOL_ERRORS: readonly ErrorCode[] = [
  'no_file',
  'file_too_large',
  'payload_too_large',
  'unsupported_media_type',
  'quota_exceeded',
  'invalid_image',
  'image_too_large',
  'processing_timeout',
  'processing_failed',
  'too_many_timeouts',
];

/** The error codes every audio and video tool may answer with, beyond the guard's. */
export const MEDIA_TOOL_ERRORS: readonly ErrorCode[] = [
  'no_file',
  'file_too_large',
  'insufficient_storage',
  'upload_not_found',
  'upload_unfinished',
  'payload_too_large',
  'unsupported_media_type',
  'unsupported_output_format',
  'media_too_large',
  'output_too_large',
  'quota_exceeded',
  'too_many_requests',
  'server_busy',
  'queue_unavailable',
  'storage_unavailable',
  'engine_unavailable',
  'processing_timeout',
  'processing_failed',
  'already_compact',
  'job_cancelled',
];
