import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../lib/hashing.js';

/**
 * JWT_SECRET when set; otherwise a secret generated once and kept in DATA_DIR/jwt-secret
 * (mode 0600), so tokens survive restarts. Several instances must share JWT_SECRET, or one
 * DATA_DIR (as they must anyway): then the first to start writes the file and all read it.
 */
export function loadOrCreateJwtSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, 'jwt-secret');
  const existing = readSecret(path);
  if (existing !== undefined) return checked(path, existing);
  mkdirSync(dataDir, { recursive: true });
  const secret = randomToken(48);
  // Written whole under a name of its own, then linked into place: link fails if another process
  // got there first (several start at once on one volume), and no process ever reads a file that
  // is created but not yet written, which would sign tokens with an empty secret.
  const draft = `${path}.${process.pid}.${randomToken(6)}`;
  writeFileSync(draft, `${secret}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return checked(path, readSecret(path) ?? '');
  } finally {
    rmSync(draft, { force: true });
  }
}

function readSecret(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A damaged file is never used or replaced silently: replacing it would sign everyone out. */
function checked(path: string, secret: string): string {
  if (secret.length < 32) {
    throw new Error(
      `${path} holds fewer than 32 characters: delete it to have a new secret generated (everyone is signed out), or set JWT_SECRET`,
    );
  }
  return secret;
}
