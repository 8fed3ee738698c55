import type { ErrorEnvelope } from '@refract/contracts';

/** The one local-storage key that holds the session token (spec section 3). */
export const TOKEN_KEY = 'token';

export const tokenStore = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** An error answer from the API, or `network` when the server could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorEnvelope['code'] | 'network',
    message: string,
  ) {
    super(message);
  }
}

/** JSON calls to the API with the stored bearer token; errors arrive as ApiError. */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = tokenStore.get();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server');
  }
  const payload = res.headers.get('content-type')?.includes('application/json')
    ? await res.json()
    : undefined;
  if (!res.ok) {
    const envelope = payload as Partial<ErrorEnvelope> | undefined;
    throw new ApiError(
      res.status,
      envelope?.code ?? 'internal_error',
      envelope?.error ?? res.statusText,
    );
  }
  return payload as T;
}
