import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import { z } from 'zod';
import { sizeLabel, type ErrorEnvelope } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../lib/app-error.js';
import type { Services } from '../../services/services.js';
import { fileCeilings } from '../../services/file-limits.js';
import { checkRoom } from '../../services/uploads/disk-room.js';
import type { UploadStore } from '../../services/uploads/upload-store.js';

export const UPLOADS_PATH = '/api/uploads';

/** The content type of a tus PATCH's body. */
const OCTET_STREAM = 'application/offset+octet-stream';

/** tus hands its hooks a web Request made over the Node request (srvx), which it keeps. */
type NodeBacked = { runtime?: { node?: { req: IncomingMessage } } };

const params = z.object({ id: z.string().max(64) });

const lengthRequired = () =>
  new AppError(
    400,
    'validation_failed',
    "Declare the file's length in Upload-Length (a length given later is not taken)",
  );

/** tus's own refusals (a wrong offset, a missing header), in the API's error shape. */
function tusError(err: Error | { status_code: number; body: string }) {
  const status = 'status_code' in err ? err.status_code : 500;
  const text = ('body' in err ? err.body : err.message).trim();
  const code: ErrorEnvelope['code'] =
    status === 404 || status === 410
      ? 'upload_not_found'
      : status === 413
        ? 'file_too_large'
        : status >= 500
          ? 'internal_error'
          : 'validation_failed';
  return {
    status_code: status,
    body: JSON.stringify({ error: text, code } satisfies ErrorEnvelope),
  };
}

/**
 * Resumable uploads (the tus protocol, 1.0.0, with creation, creation-with-upload and
 * termination): POST /api/uploads with `Upload-Length` makes one, PATCH /api/uploads/:id sends
 * bytes from the offset HEAD says the server has, DELETE drops it. A finished upload becomes an
 * audio or video job's input: the tool's form with `upload=<id>` instead of the file.
 *
 * The tus server makes, reports and drops uploads; a PATCH's bytes we write ourselves
 * (`receiveBytes`). Every check is ours, on the route, before either:
 * the caller's access (a session or an API key), the plan's file size, the user's disk
 * allowance and the disk's own room when an upload is made, and its owner on every request
 * after. The owner is written by the server into the upload's metadata; one sent by the client
 * is dropped.
 */
export function uploadRoutes(context: AppContext, services: Services, uploads: UploadStore) {
  const { config } = context;
  const ceilings = fileCeilings(config);
  /** Who makes each upload, by its request, for tus's creation hook (which sees only the request). */
  const creators = new WeakMap<IncomingMessage, string>();
  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: uploads.fileStore,
    relativeLocation: true,
    // The API's own CORS (plugins/cors.ts) says which sites may call it; tus would say '*'.
    allowedOrigins: (origin) => config.corsOrigins.includes(origin),
    onResponseError: (_request, err) => tusError(err),
    // checkCreate ran first on this very request, so its creator is known.
    onUploadCreate: async (request, upload) => {
      const owner = creators.get((request as NodeBacked).runtime!.node!.req);
      if (!owner) throw { status_code: 500, body: 'The upload has no owner' };
      return { metadata: { ...upload.metadata, owner } };
    },
  });

  async function checkCreate(request: FastifyRequest) {
    const user = request.user!;
    const header = request.headers['upload-length'];
    if (request.headers['upload-defer-length'] !== undefined || typeof header !== 'string')
      throw lengthRequired();
    const length = Number(header);
    if (!/^\d+$/.test(header) || !Number.isSafeInteger(length)) throw lengthRequired();
    if (length === 0) throw new AppError(400, 'no_file', 'The file is empty');
    const limit = (await services.quotas.fileMaxBytes(user)).media;
    if (length > limit)
      throw new AppError(
        413,
        'file_too_large',
        `The file is larger than the ${sizeLabel(limit)} your plan takes for audio and video`,
      );
    const { heldBy, stillToCome } = await uploads.totals(user.id);
    if (heldBy + length > ceilings.media)
      throw new AppError(
        413,
        'uploads_over_allowance',
        `Your uploads would take more than the ${sizeLabel(ceilings.media)} kept for each user. Finish or delete one first.`,
      );
    await checkRoom(config.dataDir, length, stillToCome);
    creators.set(request.raw, user.id);
  }

  const idOf = (request: FastifyRequest) => (request.params as z.infer<typeof params>).id;

  async function checkOwner(request: FastifyRequest) {
    await uploads.owned(idOf(request), request.user!.id);
  }

  /** The answer is tus's, written on the raw response with the headers set so far. */
  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  }

  /**
   * PATCH, tus's rules with the bytes piped straight from the request into the file: through
   * tus's own handler, which turns the request into a web stream and back, the server spent a
   * whole core at 400 MB/s (bench/results/tus-upload.md).
   */
  async function receiveBytes(request: FastifyRequest, reply: FastifyReply) {
    if (request.headers['tus-resumable'] === undefined)
      throw new AppError(412, 'validation_failed', 'Send Tus-Resumable: 1.0.0');
    if (request.headers['content-type'] !== OCTET_STREAM)
      throw new AppError(415, 'unsupported_media_type', `Send the bytes as ${OCTET_STREAM}`);
    const header = request.headers['upload-offset'];
    if (typeof header !== 'string' || !/^\d+$/.test(header))
      throw new AppError(400, 'validation_failed', 'Send Upload-Offset: the bytes the server has');
    const offset = Number(header);
    const added = await context.metrics.receiving(
      'resumable',
      () => uploads.append(idOf(request), request.user!.id, offset, request.raw),
      (bytes) => bytes,
    );
    return reply
      .code(204)
      .headers({ 'tus-resumable': '1.0.0', 'upload-offset': String(offset + added) })
      .send();
  }

  const errors = ['file_too_large', 'uploads_over_allowance', 'insufficient_storage'] as const;
  return async (app: FastifyInstance) => {
    // tus reads the bytes from the request itself: Fastify leaves the body unread.
    app.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => done(null));
    app.post(
      UPLOADS_PATH,
      {
        config: { access: 'userOrKey', errors: [...errors, 'no_file'] },
        schema: {
          summary: 'Start a resumable upload (tus)',
          description: `tus 1.0.0 creation: \`Tus-Resumable: 1.0.0\`, \`Upload-Length\` (required, at most your plan's audio and video size), optional \`Upload-Metadata\` (\`filename\`). Answers 201 with its address in \`Location\`. Refused before any byte with 413 (${errors.slice(0, 2).join(', ')}) or 507 insufficient_storage. Unfinished, it is removed after UPLOAD_TIMEOUT of silence.`,
          tags: ['Uploads'],
        },
        preHandler: checkCreate,
      },
      handOver,
    );
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
      app.route({
        method,
        url: `${UPLOADS_PATH}/:id`,
        config: { access: 'userOrKey', errors: ['upload_not_found'] },
        schema: {
          summary: {
            HEAD: 'How much of an upload the server has (Upload-Offset)',
            PATCH: 'Send bytes of an upload from Upload-Offset',
            DELETE: 'Drop an upload',
          }[method],
          tags: ['Uploads'],
          params,
        },
        preHandler: checkOwner,
        handler: method === 'PATCH' ? receiveBytes : handOver,
      });
  };
}
