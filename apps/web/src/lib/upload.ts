import { ApiError, apiErrorFrom, authHeaders } from './api';

export interface ToolResponse {
  blob: Blob;
  filename: string;
  headers: (name: string) => string | null;
}

/**
 * The download name the server gave in Content-Disposition: the UTF-8 `filename*` when there
 * is one (a name in any script), else the ASCII `filename`.
 */
export function filenameFrom(disposition: string | null, fallback = 'result'): string {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed escape: the ASCII name below still names the file.
    }
  }
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
  headers: Record<string, string> = {},
): Promise<ToolResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
    xhr.open('POST', path);
    xhr.responseType = 'blob';
    for (const [name, value] of Object.entries({ ...authHeaders(), ...headers }))
      xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'Could not reach the server'));
    xhr.onload = async () => {
      const blob = xhr.response as Blob;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({
          blob,
          filename: filenameFrom(xhr.getResponseHeader('content-disposition')),
          headers: (name) => xhr.getResponseHeader(name),
        });
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(await blob.text());
      } catch {
        // Not an error envelope; apiErrorFrom gives it the generic code.
      }
      reject(apiErrorFrom(xhr.status, body, xhr.statusText));
    };
    // A string is JSON (HTML to image); a form is a file upload.
    if (typeof body === 'string') xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(body);
  });
}
