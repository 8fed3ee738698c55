import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../lib/hashing.js';

/**
 * JWT_SECRET when set; otherwise a secret generated once and kept in DATA_DIR/jwt-secret
 * (mode 0600), so tokens survive restarts. Several instances must share JWT_SECRET.
 */
export function loadOrCreateJwtSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, 'jwt-secret');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not created yet.
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomToken(48);
  // 'wx' fails if another process created it meanwhile; then use theirs.
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(path, 'utf8').trim();
  }
}
