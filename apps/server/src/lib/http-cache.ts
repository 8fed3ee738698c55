import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON body serialised once, with the ETag that names it. */
export interface CachedBody {
  body: string;
  etag: string;
}

export function cachedBody(data: unknown): CachedBody {
  const body = JSON.stringify(data);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { body, etag: `"${hash}"` };
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // Weak comparison (RFC 9110 §13.1.2): a proxy may have marked our tag weak.
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers a body that is the same for everyone who may see it: 304 with no body when the
 * client's copy is current, else the body as it was serialised once. `no-cache` lets browsers
 * and proxies keep it but ask each time, so an admin's edit shows on the next request.
 * `scope` is `private` when the body depends on who asks (an admin sees more).
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, etag }: CachedBody,
  scope: 'public' | 'private' = 'public',
) {
  reply.header('etag', etag).header('cache-control', `${scope}, no-cache`);
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}
