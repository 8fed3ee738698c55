import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateJwtSecret } from './jwt-secret.js';

describe('loadOrCreateJwtSecret', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'refract-jwt-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('generates one secret into DATA_DIR, readable by its owner only, and reuses it', () => {
    const dir = dataDir();
    const secret = loadOrCreateJwtSecret(dir);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateJwtSecret(dir)).toBe(secret);
    expect(readdirSync(dir)).toEqual(['jwt-secret']);
  });

  it('prefers JWT_SECRET and writes nothing then', () => {
    const dir = dataDir();
    expect(loadOrCreateJwtSecret(dir, 'q3Vt9-Lk2pXz7RwBn4Hs8JmYc6Fd1GaE0uTo5WiN')).toBe(
      'q3Vt9-Lk2pXz7RwBn4Hs8JmYc6Fd1GaE0uTo5WiN',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never signs with a file that is empty or cut short', () => {
    // What a process starting beside another once could read: the file created, not yet written.
    const dir = dataDir();
    writeFileSync(join(dir, 'jwt-secret'), '');
    expect(() => loadOrCreateJwtSecret(dir)).toThrow(/jwt-secret/);
    writeFileSync(join(dir, 'jwt-secret'), 'short\n');
    expect(() => loadOrCreateJwtSecret(dir)).toThrow(/fewer than 32 characters/);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe('short\n');
  });
});
