import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { BATCH_PER_FILE_FIELD, sizeLabel } from '@refract/contracts';
import type { Config } from '../../config.js';
import type { BatchRow } from '../../db/repositories/batches-repository.js';
import type { UserRow } from '../../db/repositories/users-repository.js';
import { AppError } from '../../lib/app-error.js';
import type { Engines } from '../../media/engines.js';
import { byteLimit, createWorkDir, removeWorkDir, stopAtLimit } from '../../plugins/uploads.js';
import type { BatchService, HeldFile } from '../../services/batches/batch-service.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { batchFields } from './batch-fields.js';
import { withApplied } from '../tools/tool-fields.js';

/** The form field every batch file comes in (repeated), whatever the tool. */
export const BATCH_FILE_FIELD = 'file';

export interface BatchLimits {
  files: number;
  bytes: number;
  /** The largest one file may be: the user's plan's, for this tool (file-limits.ts). */
  fileBytes: number;
}

export const tooManyFiles = (limits: BatchLimits) =>
  new AppError(
    413,
    'batch_too_large',
    `Your plan takes up to ${limits.files} files in one batch. Send fewer files, or upgrade your plan.`,
  );

const unknownFilePart = (name: string) =>
  new AppError(
    400,
    'unknown_field',
    `Unknown file field "${name}". Send each file in a "${BATCH_FILE_FIELD}" part`,
    {},
    { fields: [name] },
  );

export const tooManyBytes = (limits: BatchLimits) =>
  new AppError(
    413,
    'batch_too_large',
    `Your plan takes up to ${sizeLabel(limits.bytes)} in one batch. Send fewer or smaller files, or upgrade your plan.`,
  );

/**
 * Reads a batch's multipart form as it streams: the tool's fields first, with any per-file
 * settings (all checked with the tool's own schema when the first file begins), then each
 * `file` part to its own job's directory, with one use held for it. Past the plan's file or
 * byte limit the upload stops with 413 batch_too_large, and past the largest file
 * with 413 file_too_large (the plan's size for the tool); a file part under another name is 400 unknown_field at once. Then
 * every held use is given back. A file empty, unreadable for the tool or over the quota is
 * recorded as failed, and the rest go on. Once the whole form is in, the held files are queued.
 */
export async function receiveBatch(options: {
  request: FastifyRequest;
  user: UserRow;
  batch: BatchRow;
  tool: ToolDefinition;
  limits: BatchLimits;
  batches: BatchService;
  engines: Engines;
  config: Config;
}): Promise<void> {
  const { request, tool, limits, batches, batch } = options;
  const raw: Record<string, string> = {};
  let fields: ReturnType<typeof batchFields> | undefined;
  let index = 0;
  let total = 0;
  const held: HeldFile[] = [];
  // A tool's extra file (the watermark's logo) comes before the files, once, and each file's
  // job gets it beside its input (job-files.ts keeps it between runs).
  const extras: Record<string, string> = {};
  let extrasDir: string | undefined;
  const extraCount = tool.extraFiles?.length ?? 0;
  const parts = request.parts({
    // One file over the limit is let through the parser so that we refuse it in our words.
    limits: {
      files: limits.files + 1 + extraCount,
      parts: limits.files + 26,
      fileSize: limits.fileBytes,
    },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0]);
  try {
    for await (const part of parts) {
      if (part.type !== 'file') {
        if (fields)
          throw new AppError(400, 'validation_failed', "Send the tool's fields before the files");
        if (typeof part.value === 'string') raw[part.fieldname] = part.value;
        continue;
      }
      const extra = tool.extraFiles?.find((file) => file.field === part.fieldname);
      if (extra) {
        if (fields || extras[extra.field])
          throw new AppError(
            400,
            'validation_failed',
            `Send "${extra.field}" once, before the files`,
          );
        extrasDir ??= await createWorkDir(options.config.dataDir);
        const path = join(extrasDir, extra.field);
        await pipeline(part.file, byteLimit(extra), createWriteStream(path));
        extras[extra.field] = path;
        continue;
      }
      // Refused before a byte of it is read: skipping it would mean reading it to its end.
      if (part.fieldname !== BATCH_FILE_FIELD) throw unknownFilePart(part.fieldname);
      if (!fields) {
        fields = batchFields(tool, raw, limits.files);
        for (const checked of [fields.shared, ...fields.own.values()])
          await tool.precheck?.(checked.parsed, options.engines, options.config);
      }
      if (index >= limits.files) throw tooManyFiles(limits);
      const set = fields.own.get(index) ?? fields.shared;
      const job = { fields: set.raw, service: tool.service(set.parsed) };
      const slot = batches.fileSlot();
      const file = { id: slot.id, index, name: part.filename || `file-${index + 1}`, bytes: 0 };
      index += 1;
      await mkdir(dirname(slot.input), { recursive: true });
      // A file over the plan's size stops the upload there, as on the tool's own route: to
      // record it as failed and go on, its every byte would have to be read.
      stopAtLimit(part.file, limits.fileBytes);
      try {
        await pipeline(
          part.file,
          async function* count(source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              file.bytes += chunk.length;
              total += chunk.length;
              if (total > limits.bytes) throw tooManyBytes(limits);
              yield chunk;
            }
          },
          createWriteStream(slot.input),
        );
      } catch (err) {
        // Not yet a job: nothing else would remove its directory.
        await rm(dirname(slot.input), { recursive: true, force: true });
        throw err;
      }
      if (file.bytes === 0) {
        await batches.refuse(batch, file, {
          status: 400,
          code: 'no_file',
          message: 'The file is empty',
        });
        continue;
      }
      for (const [field, path] of Object.entries(extras)) {
        const beside = join(dirname(slot.input), `extra-${field}`);
        // One logo for a hundred files: linked, not copied, where the disk allows.
        await link(path, beside).catch(() => copyFile(path, beside));
      }
      let inspected;
      try {
        inspected = await tool.inspect?.(slot.input, set.parsed, options.config);
      } catch (err) {
        const mapped = tool.mapError?.(err) ?? err;
        if (!(mapped instanceof AppError)) throw err;
        await batches.refuse(batch, file, mapped);
        continue;
      }
      const kept = await batches.hold(options.user, batch, file, {
        ...job,
        fields: withApplied(job.fields, inspected),
      });
      if (kept) held.push(kept);
    }
    const stray = [...(fields?.own.keys() ?? [])].find((key) => key >= index);
    if (stray !== undefined)
      throw new AppError(
        400,
        'validation_failed',
        `Invalid ${BATCH_PER_FILE_FIELD}.${stray}: the batch has ${index} files`,
      );
  } catch (err) {
    await batches.drop(held);
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw tooManyFiles(limits);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError(413, 'payload_too_large', 'The form has too many parts');
    if (err instanceof AppError) throw err;
    request.log.warn({ err }, 'batch upload failed');
    throw new AppError(400, 'validation_failed', 'The upload was interrupted or malformed');
  } finally {
    if (extrasDir) await removeWorkDir(extrasDir);
  }
  if (index === 0)
    throw new AppError(400, 'no_file', `Choose files to upload (field "${BATCH_FILE_FIELD}")`);
  await batches.start(batch, held);
}
