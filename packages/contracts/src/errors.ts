import { z } from 'zod';

/**
 * Every error the API can answer with. The web translates `errors.<code>`, so a code
 * once published is never renamed.
 */
export const ERROR_CODES = [
  'validation_failed',
  'not_found',
  'method_not_allowed',
  'unauthorized',
  'forbidden',
  'too_many_requests',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
  'service_unavailable',
  'invalid_email',
  'email_taken',
  'weak_password',
  'invalid_credentials',
  'email_not_found',
  'incorrect_answers',
  'invalid_reset_token',
  'invalid_language',
  'unknown_service',
  'quota_exceeded',
  'plan_name_taken',
  'plan_in_use',
  'plan_protected',
  'file_too_large',
  'no_file',
  'invalid_image',
  'image_too_large',
  'unsupported_output_format',
  'processing_timeout',
  'processing_failed',
  'empty_html',
  'render_timeout',
  'render_too_large',
  'engine_unavailable',
  'server_busy',
  'already_compact',
  'target_unreachable',
  'svg_not_compressible',
  'job_cancelled',
  'job_not_finished',
  'plan_not_purchasable',
  'invalid_card',
  'checkout_closed',
  'card_declined',
  'invalid_signature',
  'no_subscription',
  'api_key_not_allowed',
  'invalid_api_key',
  'api_key_limit_reached',
  'upload_timeout',
  'result_expired',
  'media_too_large',
  'output_too_large',
  'no_scheduled_change',
  'unknown_field',
  'account_suspended',
  'last_admin',
  'queue_unavailable',
  'batch_too_large',
  'storage_unavailable',
  'too_many_renders',
  'text_too_large',
  'trim_out_of_range',
  'invalid_logo',
  'logo_too_large',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one shape of every error response. */
export const errorEnvelopeSchema = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
