import type { ErrorEnvelope } from '@refract/contracts';
import { ApiError, tokenStore } from './api';

export interface ToolResponse {
  blob: Blob;
  filename: string;
  headers: (name: string) => string | null;
}

function filenameFrom(disposition: string | null, fallback: string): string {
  return disposition?.match(/filename="([^"]+)"/)?.[1] ?? fallback;
}

/**
 * Posts a form (or a JSON string) to a tool endpoint with upload progress (fetch has none),
 * and resolves with the result file. Errors arrive as ApiError with the server's code.
 */
export function postTool(
  path: string,
  body: FormData | string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ToolResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
    xhr.open('POST', path);
    xhr.responseType = 'blob';
    const token = tokenStore.get();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'Could not reach the server'));
    xhr.onload = async () => {
      const blob = xhr.response as Blob;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({
          blob,
          filename: filenameFrom(xhr.getResponseHeader('content-disposition'), 'result'),
          headers: (name) => xhr.getResponseHeader(name),
        });
        return;
      }
      try {
        const envelope = JSON.parse(await blob.text()) as ErrorEnvelope;
        reject(new ApiError(xhr.status, envelope.code, envelope.error));
      } catch {
        reject(new ApiError(xhr.status, 'internal_error', xhr.statusText));
      }
    };
    // A string is JSON (HTML to image); a form is a file upload.
    if (typeof body === 'string') xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(body);
  });
}
