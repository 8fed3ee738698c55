import { BATCH_PER_FILE_FIELD, batchPerFileSchema } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import { refuseUnknownFields } from '../../lib/unknown-fields.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { parseToolFields } from '../tools/tool-fields.js';

export interface FieldSet<Fields> {
  raw: Record<string, string>;
  parsed: Fields;
}

const invalid = (message: string) => new AppError(400, 'validation_failed', message);

/**
 * A batch's fields, checked whole before any file is held: the shared fields with the tool's
 * schema, and each file's own settings (`perFile`, see the contracts) laid over them and
 * checked the same way. A bad entry refuses the batch, so nothing is charged for a typo.
 * Each set comes as the text sent (`raw`, what a file's job keeps: the runner parses it again,
 * and a parsed value such as blur areas, JSON text made a list, would not parse twice) and
 * as parsed (`parsed`, for the checks made here).
 */
export function batchFields<Fields>(
  tool: ToolDefinition<Fields>,
  raw: Record<string, string>,
  maxFiles: number,
): { shared: FieldSet<Fields>; own: Map<number, FieldSet<Fields>> } {
  const { [BATCH_PER_FILE_FIELD]: perFileText, ...shared } = raw;
  refuseUnknownFields(tool.fields, shared);
  const sharedFields = { raw: shared, parsed: parseToolFields(tool, shared) };
  const own = new Map<number, FieldSet<Fields>>();
  if (perFileText !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(perFileText);
    } catch {
      throw invalid(`Invalid ${BATCH_PER_FILE_FIELD}: must be JSON {"<file index>": {...}}`);
    }
    const parsed = batchPerFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(`Invalid ${BATCH_PER_FILE_FIELD}.${issue?.path.join('.')}: ${issue?.message}`);
    }
    for (const [key, values] of Object.entries(parsed.data)) {
      const index = Number(key);
      if (index >= maxFiles)
        throw invalid(`Invalid ${BATCH_PER_FILE_FIELD}.${key}: your plan takes ${maxFiles} files`);
      refuseUnknownFields(tool.fields, values);
      const text = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
      try {
        const merged = { ...shared, ...text };
        own.set(index, { raw: merged, parsed: parseToolFields(tool, merged) });
      } catch (err) {
        if (err instanceof AppError)
          throw invalid(`${BATCH_PER_FILE_FIELD}.${key}: ${err.message}`);
        throw err;
      }
    }
  }
  return { shared: sharedFields, own };
}
