import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * argon2 is loaded on the first password hashed or checked: its native addon and its code
 * cost the server some 3 MB from start-up on, and most requests (API keys, sessions) never
 * hash a password.
 */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

// Algorithm.Argon2id; the package's const enum cannot be imported under verbatimModuleSyntax.
const ARGON2ID = 2;

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export async function hashSecret(secret: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(secret, { algorithm: ARGON2ID });
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(hashed, secret);
  } catch {
    return false;
  }
}

/** A hash to verify against when there is no real one, so "no such user" takes as long as a wrong password. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashSecret(randomBytes(16).toString('hex'));
  return decoy;
}

/** Security answers compare case- and space-insensitively. */
export function normalizeAnswer(answer: string): string {
  return answer.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/** High-entropy tokens (reset tokens, API keys) are stored as SHA-256: fast, and enough for 256 random bits. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Equal secrets, compared in constant time (their digests: equal lengths whatever was sent). */
export const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(Buffer.from(sha256(given), 'hex'), Buffer.from(sha256(expected), 'hex'));
