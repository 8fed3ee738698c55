import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { IndirectionScanner } from '../media/av/indirections.js';
import { refuseUnknownFields } from '../lib/unknown-fields.js';
import { fileTooLarge } from '../services/file-limits.js';

export interface Upload {
  /** Where the file was streamed; undefined when no file part came. */
  path?: string;
  bytes: number;
  /** The name the client gave the file: only ever text for a download name, never a path. */
  filename?: string;
  /** Whether the file holds playlist or script markers, found as it streamed to disk. */
  containsIndirection: boolean;
  fields: Record<string, string>;
  workDir: string;
  /** Paths of the second file parts a tool declares (e.g. watermark's `logo`), by field. */
  extraFiles: Record<string, string>;
  /** Instead of a file part: the id of a finished resumable upload (`upload`), where allowed. */
  uploadId?: string;
}

/** The text field that names a resumable upload instead of sending the file. */
export const UPLOAD_ID_FIELD = 'upload';

/** Room for the multipart boundaries and a tool's fields around the file or files themselves. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** A second file part a tool takes (e.g. a logo), with its own, smaller size limit. */
export interface ExtraFile {
  field: string;
  maxBytes: number;
  /** The answer when the part passes maxBytes. */
  tooLarge(): AppError;
  /** The part is required while this text field has this value (the tool refuses 400 without it). */
  requiredWhen?: { field: string; equals: string };
}

const tooManyParts = () => new AppError(413, 'payload_too_large', 'The form has too many parts');

/** A file part under a name the tool does not take: 400 unknown_field, naming it. */
const unknownFilePart = (name: string, fileField: string) =>
  new AppError(
    400,
    'unknown_field',
    `Unknown file field "${name}". Send the file in a "${fileField}" part`,
    {},
    { fields: [name] },
  );

export async function registerUploads(app: FastifyInstance) {
  await app.register(multipart, {
    // Tight defaults; each tool narrows fileSize further.
    // One file; a tool that declares extra parts (ExtraFile) raises it for its own requests.
    limits: { files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024, headerPairs: 100 },
  });
}

/**
 * Busboy only truncates a file part past its limit and reads on to the end of the part: stop
 * reading there instead, failing the part's stream with 413 file_too_large. The answer sent
 * before the body is read closes the connection once the client has sent the rest
 * (plugins/lingering-close.ts).
 */
export function stopAtLimit(file: Readable & { truncated?: boolean }, maxBytes: number) {
  // A part parsed whole from one chunk may have passed its limit before it reached us.
  if (file.truncated) file.destroy(fileTooLarge(maxBytes));
  else file.once('limit', () => file.destroy(fileTooLarge(maxBytes)));
}

/** Passes a part's bytes on, failing with its own 413 once they pass its limit. */
export function byteLimit(extra: ExtraFile) {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > extra.maxBytes ? extra.tooLarge() : null, chunk);
    },
  });
}

/** A private directory under DATA_DIR/tmp for one request; the caller removes it. */
export async function createWorkDir(dataDir: string): Promise<string> {
  const root = join(dataDir, 'tmp');
  await mkdir(root, { recursive: true });
  return mkdtemp(join(root, 'req-'));
}

export const removeWorkDir = (dir: string) => rm(dir, { recursive: true, force: true });

/**
 * Streams the one file part of a multipart request to disk (never whole into memory) and
 * collects the text fields. Past `maxBytes` the upload is cut off at once: 413 file_too_large.
 * A file part under any name but `fileField` or a declared extra file is refused as its header
 * arrives (400 unknown_field), and so is a second one (413), before their bytes are read. The
 * file's own name is never used as a path.
 */
export async function receiveUpload(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  workDir: string,
  extraFiles: readonly ExtraFile[] = [],
  { resumable = false }: { resumable?: boolean } = {},
): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data');
  }
  const upload: Upload = {
    bytes: 0,
    fields: {},
    workDir,
    containsIndirection: false,
    extraFiles: {},
  };
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxBytes, files: 1 + extraFiles.length },
    })) {
      if (part.type === 'file') {
        const extra = extraFiles.find((file) => file.field === part.fieldname);
        if (extra && !upload.extraFiles[extra.field]) {
          const path = join(workDir, `extra-${extra.field}`);
          await pipeline(part.file, byteLimit(extra), createWriteStream(path));
          if ((await stat(path)).size > 0) upload.extraFiles[extra.field] = path;
          continue;
        }
        // Refused before a byte of it is read: skipping a part means reading it to its end, and
        // a part may be as long as the client likes.
        if (part.fieldname !== fileField && !extra)
          throw unknownFilePart(part.fieldname, fileField);
        if (extra || upload.path) throw tooManyParts();
        const path = join(workDir, 'input');
        stopAtLimit(part.file, maxBytes);
        // Scanned on its way to disk: one read of the file serves the store and the scan.
        const scanner = new IndirectionScanner();
        await pipeline(part.file, scanner, createWriteStream(path));
        upload.containsIndirection = scanner.found;
        upload.path = path;
        upload.filename = part.filename || undefined;
        upload.bytes = (await stat(path)).size;
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(maxBytes);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw tooManyParts();
    if (err instanceof AppError) throw err;
    throw new AppError(400, 'validation_failed', 'The upload was interrupted or malformed');
  }
  // Every multipart route declares its fields (config.upload, also its OpenAPI form): any
  // other text field is refused here, in one place for every tool (a file part under another
  // name already was, as it began).
  const declared = request.routeOptions.config.upload?.fields;
  if (declared)
    refuseUnknownFields(declared, upload.fields, [
      fileField,
      ...extraFiles.map((file) => file.field),
      ...(resumable ? [UPLOAD_ID_FIELD] : []),
    ]);
  const uploadId = resumable ? upload.fields[UPLOAD_ID_FIELD] : undefined;
  if (uploadId !== undefined) {
    delete upload.fields[UPLOAD_ID_FIELD];
    if (upload.path)
      throw new AppError(400, 'validation_failed', 'Send the file, or an upload id, not both');
    return { ...upload, uploadId };
  }
  if (!upload.path || upload.bytes === 0)
    throw new AppError(400, 'no_file', `Choose a file to upload (field "${fileField}")`);
  return upload;
}
