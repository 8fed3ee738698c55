import type { ErrorEnvelope } from '@refract/contracts';

/** The one local-storage key that holds the session token. */
export const TOKEN_KEY = 'token';

export const tokenStore = {
  // No storage when a page is prerendered at build time (src/prerender): a visitor's page.
  get: () => globalThis.localStorage?.getItem(TOKEN_KEY) ?? null,
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

/** The stored session as an Authorization header (none when signed out). */
export function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Fires `ended` when the server no longer takes the stored session (see apiErrorFrom). */
export const sessionEvents = new EventTarget();

/**
 * Set (for this tab) when the server refused the session because the account is suspended, so
 * the app says why the user was signed out, and whom to contact; cleared by the next sign-in.
 */
export const SUSPENDED_KEY = 'refract.suspended';

/**
 * An error answer's envelope as an ApiError; a body that is not one gets a generic code.
 * Every request carries the stored token, so a 401 `unauthorized` means the session ended on
 * the server (expired after 7 days, a password reset, a suspension): the token is dropped and
 * `ended` fires, and the app treats the user as a visitor again (the next submit opens the
 * sign-in dialog, and the work goes on after it, instead of failing again). A 403
 * `account_suspended` ends it too, and is remembered so the app can say so (SUSPENDED_KEY).
 */
export function apiErrorFrom(status: number, body: unknown, statusText = ''): ApiError {
  const envelope = (typeof body === 'object' && body ? body : {}) as Partial<ErrorEnvelope>;
  const code = envelope.code ?? 'internal_error';
  const suspended = status === 403 && code === 'account_suspended';
  if ((suspended || (status === 401 && code === 'unauthorized')) && tokenStore.get()) {
    tokenStore.clear();
    if (suspended) sessionStorage.setItem(SUSPENDED_KEY, '1');
    sessionEvents.dispatchEvent(new Event('ended'));
  }
  return new ApiError(status, code, envelope.error ?? statusText);
}

/** JSON calls to the API with the stored bearer token; errors arrive as ApiError. */
/** A call's method (GET without a body, POST with one), JSON body and headers of its own. */
interface CallInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function api<T>(path: string, init: CallInit = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, init)).body;
}

/** As `api`, with the answer's headers (a list's total is in X-Total-Count). */
export async function apiWithHeaders<T>(
  path: string,
  init: CallInit = {},
): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...authHeaders(),
    ...init.headers,
  };
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
  if (!res.ok) throw apiErrorFrom(res.status, payload, res.statusText);
  return { body: payload as T, headers: res.headers };
}
