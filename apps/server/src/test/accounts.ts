import { SECURITY_QUESTIONS } from '@refract/contracts';
import type { App } from '../app.js';

let counter = 0;

export interface RegisteredUser {
  token: string;
  user: { _id: string; email: string; isAdmin: boolean };
  email: string;
  password: string;
}

export function registrationBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `user${counter}-${Date.now()}@example.com`,
    password: 'correct horse battery',
    name: 'Ada Lovelace',
    securityQuestions: [
      { question: SECURITY_QUESTIONS[0], answer: 'Dune' },
      { question: SECURITY_QUESTIONS[1], answer: 'Pad Thai' },
    ],
    ...overrides,
  };
}

/** Signs up a user through the API and returns its token and credentials. */
export async function registerUser(
  app: App,
  overrides: Record<string, unknown> = {},
): Promise<RegisteredUser> {
  const body = registrationBody(overrides);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: body,
    remoteAddress: freshAddress(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const { token, user } = res.json();
  return { token, user, email: body.email, password: body.password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let address = 0;
/**
 * A new client address for each call (IPv6 documentation range), so that the per-IP limits
 * on credential routes only bite in the tests that are about them. Each in its own /64: the
 * limits count an IPv6 client by its /64.
 */
export function freshAddress(): string {
  address += 1;
  return `2001:db8:${(address >> 16).toString(16)}:${(address & 0xffff).toString(16)}::1`;
}

/** Logs in as the admin that createTestApp's ADMIN_EMAIL created. */
export async function adminToken(app: App): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    remoteAddress: freshAddress(),
  });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
  return res.json().token;
}

export const TEST_ADMIN = { email: 'admin@example.com', password: 'admin password 1' };
