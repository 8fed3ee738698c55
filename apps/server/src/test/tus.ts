import { request } from 'node:http';
import type { App } from '../app.js';
import { bearer } from './accounts.js';

/** A tus 1.0.0 client over `app.inject`, for the resumable upload tests. */
const TUS = { 'tus-resumable': '1.0.0' };

const encode = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

export function createUpload(
  app: App,
  token: string,
  length: number,
  metadata: Record<string, string> = { filename: 'song.wav' },
) {
  return app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...TUS,
      ...bearer(token),
      'upload-length': String(length),
      'upload-metadata': encode(metadata),
    },
  });
}

/** The upload's id, from the Location of its creation. */
export const uploadId = (location: string | string[] | number | undefined) =>
  String(location).split('/').pop()!;

export const uploadOffset = async (app: App, token: string, id: string) => {
  const res = await app.inject({
    method: 'HEAD',
    url: `/api/uploads/${id}`,
    headers: { ...TUS, ...bearer(token) },
  });
  return { status: res.statusCode, offset: Number(res.headers['upload-offset']) };
};

export function sendBytes(app: App, token: string, id: string, offset: number, bytes: Buffer) {
  return app.inject({
    method: 'PATCH',
    url: `/api/uploads/${id}`,
    headers: {
      ...TUS,
      ...bearer(token),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
}

/**
 * A PATCH over a real connection that sends `sent` of `bytes` and is then cut (the socket
 * destroyed), as a dropped network cuts it. Resolves once the connection is gone.
 */
export function sendBytesThenCut(
  port: number,
  token: string,
  id: string,
  bytes: Buffer,
  sent: number,
  whenSent: () => Promise<void>,
) {
  return new Promise<void>((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'PATCH',
      path: `/api/uploads/${id}`,
      headers: {
        ...TUS,
        ...bearer(token),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, sent), () => {
      void whenSent().then(() => req.destroy());
    });
  });
}
