import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorEnvelope } from '@refract/contracts';
import { AppError } from '../lib/app-error.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Metrics } from '../metrics/metrics.js';

/** Fastify's own error codes that map onto ours; anything else becomes a plain 4xx/500. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
  FST_ERR_RATE_LIMIT_REACHED: 'too_many_requests',
};

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'too_many_requests';
  if (status === 503) return 'service_unavailable';
  return status >= 500 ? 'internal_error' : 'validation_failed';
}

/** Seconds a client should wait when the thrower did not say: a busy server, a limit hit. */
const DEFAULT_RETRY_AFTER: Record<number, string> = { 429: '60', 503: '30' };

/** The code of an error envelope as serialised: `{…"code":"quota_exceeded"…}`. */
const ENVELOPE_CODE = /"code":"([a-z_]+)"/;

/**
 * One envelope for every error: `{ error, code, details? }`, never a stack trace. Each error
 * answer is counted by its code (`refract_http_errors_total`), whichever part of the app sent it.
 */
export function registerErrorHandler(app: FastifyInstance, metrics: Pick<Metrics, 'error'>) {
  // Every 429 and 503 tells the client when to come back, whichever part of the app answered.
  // A callback hook: it runs on every answer and needs no promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const status = reply.statusCode;
    const retryAfter = DEFAULT_RETRY_AFTER[status];
    if (retryAfter && !reply.hasHeader('retry-after')) reply.header('retry-after', retryAfter);
    if (status >= 400 && typeof payload === 'string')
      metrics.error(payload.match(ENVELOPE_CODE)?.[1] ?? 'none', status);
    done(null, payload);
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      reply.headers(err.headers);
      return reply.status(err.status).send({ ...err.extra, error: err.message, code: err.code });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'is invalid',
      }));
      const first = details[0];
      const message = first
        ? `Invalid ${first.path || 'request'}: ${first.message}`
        : 'Invalid request';
      return reply
        .status(400)
        .send({ error: message, code: 'validation_failed', details } satisfies ErrorEnvelope);
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '10')
        .send({
          error: 'The database is not answering. Please try again shortly.',
          code: 'service_unavailable',
        } satisfies ErrorEnvelope);
    }
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(status).send({ error: 'Internal server error', code: 'internal_error' });
    }
    const code = (err.code ? FASTIFY_CODES[err.code] : undefined) ?? codeForStatus(status);
    return reply.status(status).send({ error: err.message, code } satisfies ErrorEnvelope);
  });
}

/** The 404 envelope, for `/api/*` and anything the web app does not own. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  return reply.status(404).send({
    error: `No route for ${request.method} ${path}`,
    code: 'not_found',
  } satisfies ErrorEnvelope);
}

/**
 * Errors Fastify raises before any route or hook runs (a malformed percent-encoding, an
 * over-long parameter): the same envelope, through the reply, so the usual headers apply.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // Sent before the hooks that add these everywhere else.
  reply.headers({ 'x-request-id': request.id, 'x-content-type-options': 'nosniff' });
  if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(400).send({
      error: 'The address is not valid (a malformed %-encoding or an over-long part)',
      code: 'validation_failed',
    } satisfies ErrorEnvelope);
  }
  return reply.status(500).send({ error: 'Internal server error', code: 'internal_error' });
}

/** What a request that is not even valid HTTP gets, written straight to its socket. */
const CLIENT_ERRORS: Record<string, { status: number; envelope: ErrorEnvelope }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    envelope: { error: 'The request took too long to arrive', code: 'upload_timeout' },
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    envelope: { error: 'The request headers are too large', code: 'payload_too_large' },
  },
};
const MALFORMED: ErrorEnvelope = {
  error: 'The request is not valid HTTP',
  code: 'validation_failed',
};

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, envelope } = CLIENT_ERRORS[err.code ?? ''] ?? {
    status: 400,
    envelope: MALFORMED,
  };
  const body = JSON.stringify(envelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
