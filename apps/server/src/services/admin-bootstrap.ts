import { isUniqueViolation } from '../db/unique-violation.js';
import { hashSecret } from '../lib/hashing.js';
import type { UsersRepository } from '../db/repositories/users-repository.js';
import { assertStrongPassword, assertValidEmail, normalizeEmail } from './account-service.js';

export interface AdminSpec {
  email: string;
  password: string;
  name?: string;
}

/**
 * Creates the admin, or promotes the existing user with that email and lifts a suspension:
 * it is how an operator gets back into a site whose admin was suspended. Idempotent. An
 * existing user's password is left as it is: changing an env var must not silently reset an
 * account.
 */
export async function ensureAdmin(users: UsersRepository, spec: AdminSpec) {
  const email = normalizeEmail(spec.email);
  assertValidEmail(email);
  const existing = await users.findByEmail(email);
  if (existing) {
    if (existing.is_admin !== 1) await users.setAdmin(existing.id, true);
    if (existing.suspended_at !== null) await users.setSuspended(existing.id, false);
    return { created: false, email };
  }
  assertStrongPassword(spec.password);
  try {
    await users.create({
      email,
      name: spec.name?.trim() || 'Administrator',
      passwordHash: await hashSecret(spec.password),
      isAdmin: true,
    });
  } catch (err) {
    // Another process created it meanwhile (a database without the start-up lock): ensure it.
    if (!isUniqueViolation(err)) throw err;
    return ensureAdmin(users, spec);
  }
  return { created: true, email };
}
