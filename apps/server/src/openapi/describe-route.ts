import { ERROR_CODES, sizeLabel, type ErrorCode } from '@refract/contracts';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from '../plugins/auth.js';
import { ERROR_STATUS } from './error-statuses.js';
import type { RouteDocs } from './route-docs.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };
type JsonSchema = Record<string, unknown>;

const REQUEST_ID = {
  type: 'string',
  description:
    'The request id (yours when you sent a well-formed X-Request-Id); quote it in reports',
};
const QUOTA_HEADERS = {
  'X-Quota-Limit': {
    type: 'integer',
    description: 'Uses of this service in the period (-1: unlimited)',
  },
  'X-Quota-Remaining': { type: 'integer', description: 'Uses left in the period (-1: unlimited)' },
  'X-Quota-Reset': { type: 'string', format: 'date-time', description: 'When the period ends' },
};
const RETRY_AFTER = { type: 'integer', description: 'Seconds to wait before trying again' };

type Security = Record<string, string[]>;
const SESSION: Security = { session: [] };
const KEYS: Security[] = [{ apiKey: [] }, { apiKeyHeader: [] }];
/** What the route's declared access means to a client: how to sign in, and the refusals. */
const ACCESS: Record<Access, { security: Record<string, string[]>[]; errors: ErrorCode[] }> = {
  public: { security: [], errors: [] },
  optionalUser: { security: [], errors: [] },
  user: { security: [SESSION], errors: ['unauthorized', 'api_key_not_allowed'] },
  userOrKey: { security: [SESSION, ...KEYS], errors: ['unauthorized', 'invalid_api_key'] },
  admin: { security: [SESSION], errors: ['unauthorized', 'forbidden', 'api_key_not_allowed'] },
  checkoutLink: {
    security: [SESSION, { checkoutKey: [] }],
    errors: ['unauthorized', 'api_key_not_allowed', 'checkout_link_invalid'],
  },
  metrics: { security: [{ metricsToken: [] }], errors: ['unauthorized'] },
};

/** The error envelope, its `code` narrowed to the codes this status answers with. */
function errorResponse(status: number, codes: ErrorCode[], metered: boolean) {
  const headers: JsonSchema = { 'X-Request-Id': REQUEST_ID };
  if (status === 429 || status === 503) headers['Retry-After'] = RETRY_AFTER;
  if (metered && codes.includes('quota_exceeded')) Object.assign(headers, QUOTA_HEADERS);
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    headers,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['error', 'code'],
          properties: {
            error: { type: 'string', description: 'An English message for people' },
            code: { type: 'string', enum: codes, description: 'Stable; translate or branch on it' },
            details: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

/**
 * A tool's multipart body, from its zod fields schema and its file parts. The schema's rules
 * between fields come with it (`allOf`, see requireFields in the contracts), and so does an
 * extra file part required while a field has some value (watermark's logo).
 */
function multipartBody(upload: NonNullable<RouteDocs['upload']>) {
  const fields = z.toJSONSchema(upload.fields, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  delete fields.$schema;
  const properties = (fields.properties ?? {}) as JsonSchema;
  const required = (fields.required ?? []) as string[];
  // The condition names the field (`required`): a part needed for a value other than its default.
  const fileRules = (upload.extraFiles ?? []).flatMap(({ field, requiredWhen: when }) =>
    when
      ? [
          {
            description: `When ${when.field} is ${when.equals}: requires ${field}`,
            if: { properties: { [when.field]: { const: when.equals } }, required: [when.field] },
            then: { required: [field] },
          },
        ]
      : [],
  );
  // An audio or video tool takes its file in the form, or by the id of a resumable upload.
  const resumable = upload.maxBytes === undefined;
  const fileOrUpload = { oneOf: [{ required: [upload.fileField] }, { required: ['upload'] }] };
  const allOf = [
    ...((fields.allOf ?? []) as JsonSchema[]),
    ...fileRules,
    ...(resumable ? [fileOrUpload] : []),
  ];
  return {
    ...fields,
    ...(allOf.length > 0 ? { allOf } : {}),
    type: 'object',
    properties: {
      [upload.fileField]: {
        type: 'string',
        format: 'binary',
        description: resumable
          ? "The file, at most your plan's audio and video size (`fileMaxBytes.media` in /api/user/stats)"
          : `The file, at most ${sizeLabel(upload.maxBytes!)}`,
      },
      ...(resumable
        ? {
            upload: {
              type: 'string',
              description:
                'Instead of the file: the id of your finished resumable upload (tus, at /api/uploads), which becomes the input without a copy',
            },
          }
        : {}),
      ...Object.fromEntries(
        (upload.extraFiles ?? []).map(({ field, maxBytes, requiredWhen: when }) => [
          field,
          {
            type: 'string',
            format: 'binary',
            description: `${when ? `Required when ${when.field} is ${when.equals}` : 'Optional'}, at most ${sizeLabel(maxBytes)}`,
          },
        ]),
      ),
      ...properties,
    },
    required: resumable ? required : [upload.fileField, ...required],
  };
}

/**
 * The @fastify/swagger transform: fastify-type-provider-zod turns the zod schemas into JSON
 * Schema, then this adds what the route's options say beyond them: who may call it, the
 * multipart body of a tool, file answers, the quota and request-id headers, and every error
 * code grouped by status. Nothing here is written per route by hand.
 */
export function describeRoute(input: TransformInput) {
  const transformed = jsonSchemaTransform(input) as { schema?: JsonSchema; url: string };
  // Routes without any schema (a tool's multipart POST) come back without one.
  const base = { url: transformed.url, schema: transformed.schema ?? {} };
  if (base.schema.hide) return base;
  const { route } = input;
  const config = route.config ?? {};
  // Undeclared routes refuse everyone (plugins/auth.ts); documented as admin-only.
  const access = config.access ?? 'admin';
  const schema: JsonSchema = { ...base.schema, security: ACCESS[access].security };

  const validated = Boolean(
    route.schema?.body || route.schema?.querystring || route.schema?.params || config.upload,
  );
  const codes = new Set<ErrorCode>([
    ...ACCESS[access].errors,
    ...(validated ? (['validation_failed'] as const) : []),
    ...(config.errors ?? []),
    'internal_error',
  ]);

  if (config.upload) {
    schema.body = multipartBody(config.upload);
    schema.consumes = ['multipart/form-data'];
  }

  const successHeaders: JsonSchema = {
    'X-Request-Id': REQUEST_ID,
    ...(config.metered ? QUOTA_HEADERS : {}),
  };
  const responses: JsonSchema = {};
  for (const [status, json] of Object.entries((base.schema.response ?? {}) as JsonSchema)) {
    responses[status] =
      status === '204'
        ? { description: 'Done; no body', headers: successHeaders, type: 'null' }
        : {
            description: (json as JsonSchema).description ?? 'Success',
            headers: successHeaders,
            content: { 'application/json': { schema: json } },
          };
  }
  if (config.produces) {
    const { status = 200, contentTypes, description } = config.produces;
    responses[status] = {
      description,
      headers: successHeaders,
      content: Object.fromEntries(
        contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
  }
  if (Object.keys(responses).length === 0)
    responses[200] = { description: 'Success', headers: successHeaders, type: 'null' };

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES.filter((c) => codes.has(c))) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of byStatus)
    responses[status] = errorResponse(status, list, Boolean(config.metered));

  schema.response = responses;
  return { ...base, schema };
}
