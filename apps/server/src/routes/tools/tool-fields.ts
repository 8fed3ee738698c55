import type { Applied } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';

/**
 * A tool's multipart text fields, checked by its schema: 400 naming the first bad field.
 * (Unknown field names were refused while the upload was read, see receiveUpload.)
 */
export function parseToolFields<Fields>(tool: ToolDefinition<Fields>, raw: Record<string, string>) {
  const parsed = tool.fields.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      400,
      'validation_failed',
      `Invalid ${issue?.path.join('.') || 'field'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/**
 * The fields a job keeps, with what the options did to its file beside them (`applied`, shown in
 * the job's state; the tool's schema drops it again when the job runs).
 */
export const withApplied = (fields: unknown, inspected: void | { applied?: Applied }) =>
  inspected?.applied ? { ...(fields as object), applied: inspected.applied } : fields;
