import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.js';

export interface MultipartFile {
  field?: string;
  filename: string;
  content: Buffer;
}

/** A multipart/form-data body for app.inject, with text fields and at most one file. */
export const multipart = (fields: Record<string, string>, file?: MultipartFile) =>
  multipartFiles(fields, file ? [file] : []);

/** A multipart/form-data body: the text fields first, then each file (field `image` unless named). */
export function multipartFiles(fields: Record<string, string>, files: MultipartFile[]) {
  const boundary = `----refract${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POSTs a form with at most one file to the app, as the holder of `token` (none: anonymous). */
export function postForm(
  app: App,
  url: string,
  options: {
    token?: string;
    fields?: Record<string, string>;
    file?: { field?: string; filename?: string; content: Buffer };
    headers?: Record<string, string>;
  },
) {
  const { file } = options;
  const body = multipart(
    options.fields ?? {},
    file
      ? { field: file.field, filename: file.filename ?? 'upload.bin', content: file.content }
      : undefined,
  );
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: {
      ...body.headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
}

/** What is left in a folder of DATA_DIR (tmp, jobs): a tool must leave nothing behind. */
export function leftIn(dataDir: string, folder: string): string[] {
  const dir = join(dataDir, folder);
  return existsSync(dir) ? readdirSync(dir) : [];
}

/**
 * Posts a form of random files through Node's fetch, from another process, over the network;
 * the answer's status, headers and envelope, or the error fetch gave instead.
 */
export function fetchForm(
  url: string,
  files: { field: string; name: string; bytes: number }[],
  token?: string,
  fields: Record<string, string> = {},
) {
  const script = fileURLToPath(new URL('./fetch-form.mjs', import.meta.url));
  const request = JSON.stringify({ url, token, fields, files });
  return new Promise<FetchedForm>((resolve, reject) => {
    execFile(process.execPath, [script, request], (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as FetchedForm),
    );
  });
}

export interface FetchedForm {
  status?: number;
  headers?: Record<string, string>;
  body?: { code: string };
  error?: string;
}
