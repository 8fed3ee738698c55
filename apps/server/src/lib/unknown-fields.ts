import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';
import { z } from 'zod';
import { DOCS_PREFIX } from '../plugins/openapi.js';
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
  if (schemaFields) refuseFieldsNotIn(new Set([...alsoKnown, ...schemaFields]), value);
}

function refuseFieldsNotIn(known: Set<string>, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
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

/** A route that declares no query string knows no query field. */
const NO_QUERY = z.object({});

const CHECKS_FIELDS = Symbol('refuses unknown fields');

/**
 * On every API route as it is declared (after authentication, before the route's schemas): a
 * JSON body or a query string with a field the route does not declare is refused with 400
 * unknown_field. The known names are read from the schemas once, here, not per request. The
 * API only: the web app's pages and the API reference take what browsers add.
 */
export function refuseUnknownRequestFields(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith(DOCS_PREFIX)) return;
    const hooks = [route.preValidation ?? []].flat();
    // Fastify derives a HEAD route from each GET with the GET's hooks: add the check once.
    if (hooks.some((hook) => CHECKS_FIELDS in hook)) return;
    const query = knownFields(route.schema?.querystring ?? NO_QUERY) ?? new Set<string>();
    const body = knownFields(route.schema?.body);
    const check: preValidationHookHandler = (request, _reply, done) => {
      try {
        refuseFieldsNotIn(query, request.query);
        if (body) refuseFieldsNotIn(body, request.body);
        done();
      } catch (err) {
        done(err as Error);
      }
    };
    Object.assign(check, { [CHECKS_FIELDS]: true });
    route.preValidation = [...hooks, check];
  });
}
