import SwaggerParser from '@apidevtools/swagger-parser';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX } from '../plugins/openapi.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { TOOL_REGISTRY } from '../tools/registry.js';

type Operation = {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  responses: Record<
    string,
    { content?: Record<string, unknown>; headers?: Record<string, unknown> }
  >;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Fastify's `:id` as OpenAPI's `{id}`. */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  const routes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  const operation = (method: string, url: string) => doc.paths[openapiPath(url)]?.[method];

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('the validator does catch a broken document', async () => {
    const broken = structuredClone(doc);
    (broken.paths['/api/keys'] as Record<string, unknown>).get = { responses: 'none' };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it('documents every route the app serves', () => {
    const served = routes.filter(
      (r) =>
        r.method !== 'HEAD' &&
        r.method !== 'OPTIONS' &&
        r.url !== DOCS_PREFIX &&
        !r.url.startsWith(`${DOCS_PREFIX}/`),
    );
    expect(served.length).toBeGreaterThan(30);
    const missing = served.filter((r) => !operation(r.method.toLowerCase(), r.url));
    expect(missing).toEqual([]);
  });

  it('describes each tool: its multipart fields, its file answer, quota headers, errors', () => {
    for (const tool of TOOL_REGISTRY) {
      const op = operation('post', tool.path)!;
      expect(op, tool.path).toBeDefined();
      const form = op.requestBody!.content['multipart/form-data']!.schema;
      expect(Object.keys(form.properties)).toContain(tool.fileField);
      const shape = (tool.fields as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const field of Object.keys(shape)) expect(Object.keys(form.properties)).toContain(field);
      expect(op.responses['200']!.headers).toHaveProperty('X-Quota-Remaining');
      expect(op.responses['403']!.headers).toHaveProperty('X-Quota-Reset');
      expect(JSON.stringify(op.responses['403'])).toContain('quota_exceeded');
      expect(JSON.stringify(op.responses['401'])).toContain('invalid_api_key');
      expect(op.security).toContainEqual({ apiKey: [] });
    }
    expect(operation('post', '/api/audio/convertaudio')!.responses['202']).toBeDefined();
    expect(operation('post', '/api/html-to-image')!.responses['200']!.content).toHaveProperty(
      'image/png',
    );
    for (const url of ['/api/jobs/:id', '/api/jobs/:id/events', '/api/jobs/:id/result'])
      expect(operation('get', url)!.security).toContainEqual({ apiKeyHeader: [] });
  });

  it('shows which routes refuse keys, and 429/503 answers with Retry-After', () => {
    for (const [method, url] of [
      ['get', '/api/auth/me'],
      ['get', '/api/keys'],
      ['get', '/api/admin/users'],
      ['get', '/api/payments/subscription-status'],
    ] as const) {
      const op = operation(method, url)!;
      expect(op.security, url).toEqual([{ session: [] }]);
      expect(JSON.stringify(op.responses['403']), url).toContain('api_key_not_allowed');
    }
    expect(operation('get', '/api/subscriptions/plans')!.security).toEqual([]);
    const busy = operation('post', '/api/video/convert-video')!.responses;
    expect(busy['429']!.headers).toHaveProperty('Retry-After');
    expect(busy['503']!.headers).toHaveProperty('Retry-After');
  });

  it('serves the reference page and its assets from this server, under the CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/<script>(?!\s*<)/);
    for (const src of scripts) {
      expect(src.startsWith(`${DOCS_PREFIX}/`)).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: src })).statusCode, src).toBe(200);
    }
  });
});
