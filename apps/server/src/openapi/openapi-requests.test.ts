import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, freshAddress, registerUser } from '../test/accounts.js';
import { hasFfmpeg, pngBytes } from '../test/image-fixtures.js';
import { sineWav, testVideo } from '../test/media-fixtures.js';
import { multipartFiles, type MultipartFile } from '../test/multipart.js';
import { SchemaSampler, variantsOf } from '../test/schema-sample.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

type Schema = Record<string, unknown>;
type Parameter = { in: string; name: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: object };

/**
 * Only against a hang: every tool runs once or more (the models included) on a machine that may
 * be busy, so no time is asserted.
 */
const HANG_GUARD_MS = 600_000;

/** The codes of a documented error answer. */
const codesOf = (op: Operation, status: string) =>
  (
    (op.responses[status]?.content?.['application/json']?.schema.properties as Schema | undefined)
      ?.code as { enum?: string[] } | undefined
  )?.enum ?? [];

/** An answer's JSON body; a file answer has none. */
const jsonOf = (res: { headers: Record<string, unknown>; json(): unknown }) =>
  String(res.headers['content-type'] ?? '').startsWith('application/json')
    ? (res.json() as { code?: string; error?: string })
    : {};

/** An answer that says the body broke the route's own rules, which its document should have told. */
function refusesTheBody(status: number, body: { code?: string; error?: string }) {
  if (status !== 400) return false;
  return (
    body.code === 'validation_failed' ||
    body.code === 'unknown_field' ||
    /is required/i.test(body.error ?? '')
  );
}

/**
 * The document is the contract: a body built only from what it says a route requires (each
 * required property, of its documented type, format, bounds and pattern, and the rules between
 * fields) must get past the route's validation. Whatever the route then answers (404 for a
 * made-up id, 409, 422, a business 400 such as invalid_card) is its business; a 400
 * validation_failed or unknown_field means the document and the validator disagree.
 */
describe('requests built from the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let sampler: SchemaSampler;
  let userToken: string;
  let admin: string;
  /** A small valid file for each file part the document names, and its file name. */
  const files: Record<string, { filename: string; make: () => Promise<Buffer> | Buffer }> = {
    image: { filename: 'sample.png', make: () => pngBytes(48, 32) },
    logo: { filename: 'logo.png', make: () => pngBytes(16, 16) },
    audio: { filename: 'sample.wav', make: () => sineWav(1) },
    video: { filename: 'sample.mp4', make: () => testVideo(1) },
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    sampler = new SchemaSampler(doc);
    userToken = (await registerUser(t.app)).token;
    admin = await adminToken(t.app);
  }, HANG_GUARD_MS);
  afterAll(() => t?.close());

  /**
   * Every documented operation with a request body in `type` (JSON or multipart), once for each
   * way its rules between fields can be met (variantsOf).
   */
  function operations(type: string) {
    return Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.requestBody?.content[type])
        .flatMap(([method, op]) =>
          variantsOf(op.requestBody!.content[type]!.schema).map((schema) => ({
            method,
            path,
            op,
            schema,
          })),
        ),
    );
  }

  /** The path with each parameter filled in, and the required (and async) query parameters. */
  function url(path: string, op: Operation) {
    let filled = path;
    const query = new URLSearchParams();
    for (const param of op.parameters ?? []) {
      const value = sampler.sample(param.schema ?? { type: 'string' });
      if (param.in === 'path') {
        // A made-up id: the point is the body, so a 404 afterwards is a fine answer.
        const text = typeof value === 'string' ? 'doc-sample-id' : String(value);
        filled = filled.replace(`{${param.name}}`, encodeURIComponent(text));
      } else if (param.in === 'query' && param.required) query.set(param.name, String(value));
      // A job tool answers 202 at once instead of waiting for its result.
      else if (param.in === 'query' && param.name === 'async') query.set('async', '1');
    }
    const search = query.toString();
    return search ? `${filled}?${search}` : filled;
  }

  /**
   * Signed in as whom the route is for: nobody on public routes, the admin on admin routes and
   * on the tools (whose plan has no quota, so a spent quota never answers before the fields are
   * read, whatever the order of checks), an ordinary user on the account routes.
   */
  function auth(op: Operation): Record<string, string> {
    if (!op.security?.length) return {};
    const takesKeys = op.security.some((scheme) => 'apiKey' in scheme);
    const adminOnly = codesOf(op, '403').includes('forbidden');
    return bearer(takesKeys || adminOnly ? admin : userToken);
  }

  it(
    'every JSON body that holds only what the document requires passes validation',
    async () => {
      const tried = operations('application/json');
      expect(tried.map((o) => o.path)).toContain('/api/auth/register');
      const refused: string[] = [];
      for (const { method, path, op, schema } of tried) {
        const payload = sampler.sample(schema) as object;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: url(path, op),
          payload,
          headers: { ...auth(op), 'content-type': 'application/json' },
          remoteAddress: freshAddress(),
        });
        if (refusesTheBody(res.statusCode, jsonOf(res)))
          refused.push(`${method.toUpperCase()} ${path} ${JSON.stringify(payload)}: ${res.body}`);
      }
      expect(refused).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    'every multipart form with only the required fields and files passes validation',
    async () => {
      const tried = operations('multipart/form-data');
      expect(tried.length).toBeGreaterThan(10);
      const refused: string[] = [];
      for (const { method, path, op, schema } of tried) {
        const normalized = sampler.normalize(schema);
        const properties = (normalized.properties ?? {}) as Record<string, Schema>;
        const value = sampler.sample(schema) as Record<string, unknown>;
        const fields: Record<string, string> = {};
        const parts: MultipartFile[] = [];
        for (const [name, field] of Object.entries(value)) {
          if (properties[name]?.format === 'binary') {
            const file = files[name];
            if (!file) throw new Error(`${path}: no sample file for the part "${name}"`);
            if ((name === 'audio' || name === 'video') && !hasFfmpeg) continue;
            parts.push({ field: name, filename: file.filename, content: await file.make() });
          } else fields[name] = typeof field === 'string' ? field : JSON.stringify(field);
        }
        // Without ffmpeg no audio or video sample can be made; those routes are left out.
        if (Object.values(properties).some((p) => p.format === 'binary') && parts.length === 0)
          continue;
        const form = multipartFiles(fields, parts);
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: url(path, op),
          payload: form.payload,
          headers: { ...auth(op), ...form.headers },
        });
        if (refusesTheBody(res.statusCode, jsonOf(res)))
          refused.push(`${method.toUpperCase()} ${path} ${JSON.stringify(fields)}: ${res.body}`);
      }
      expect(refused).toEqual([]);
    },
    HANG_GUARD_MS,
  );
});
