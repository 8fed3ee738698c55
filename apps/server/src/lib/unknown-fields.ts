import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from './app-error.js';

interface ZodLike {
  _zod?: { def: { type: string; shape?: object; in?: unknown; innerType?: unknown } };
}

/**
 * The field names an object schema knows (through defaults, optionals and transforms);
 * undefined when the schema is not an object (an array body, a plain value).
 */
export function knownFields(schema: unknown): Set<string> | undefined {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def) return undefined;
  if (def.type === 'object' && def.shape) return new Set(Object.keys(def.shape));
  if (def.type === 'pipe') return knownFields(def.in);
  if (def.innerType) return knownFields(def.innerType);
  return undefined;
}

/**
 * 400 unknown_field naming every field the schema does not know, so a misspelt option
 * (`rotation` for `angle`) is refused instead of silently taking its default.
 */
export function refuseUnknownFields(
  schema: unknown,
  value: unknown,
  alsoKnown: string[] = [],
): void {
  const schemaFields = knownFields(schema);
  if (!schemaFields || typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const known = new Set([...alsoKnown, ...schemaFields]);
  const unknown = Object.keys(value).filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  const list = unknown.map((name) => `"${name}"`).join(', ');
  throw new AppError(
    400,
    'unknown_field',
    `Unknown field${unknown.length > 1 ? 's' : ''} ${list}. Known: ${[...known].join(', ') || 'none'}`,
    {},
    { fields: unknown },
  );
}

/**
 * Wraps the zod validator compiler: a JSON body with a field its route does not declare is
 * refused before it is parsed. Bodies only: query strings may carry cache-busting extras.
 */
export function refusingUnknownBodyFields<Schema>(inner: FastifySchemaCompiler<Schema>) {
  const compile: FastifySchemaCompiler<Schema> = (route) => {
    const validate = inner(route);
    if (route.httpPart !== 'body') return validate;
    return (data) => {
      try {
        refuseUnknownFields(route.schema, data);
      } catch (error) {
        return { error: error as Error };
      }
      return validate(data);
    };
  };
  return compile;
}
