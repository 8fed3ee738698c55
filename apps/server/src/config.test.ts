import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.payments.provider).toBe('sandbox');
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it.each(['abc', '70000', '-1', '3.5'])('stops on PORT=%s and names the variable', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT/);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('requires a JWT_SECRET of at least 32 characters when one is given', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it.each([
    'change-me-to-32-or-more-random-characters',
    'CHANGEME_CHANGEME_CHANGEME_CHANGEME',
    'please-replace-me-with-a-long-random-string',
    'placeholder-jwt-secret-0123456789abcdef',
    'an-example-secret-of-more-than-32-characters',
    'x'.repeat(40),
  ])('refuses the placeholder JWT_SECRET %s and names the variable', (secret) => {
    expect(() => loadConfig({ JWT_SECRET: secret })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: secret })).toThrow(/JWT_SECRET/);
  });

  it('accepts a random JWT_SECRET', () => {
    const secret = 'q3Vt9-Lk2pXz7RwBn4Hs8JmYc6Fd1GaE0uTo5WiN';
    expect(loadConfig({ JWT_SECRET: secret }).jwtSecret).toBe(secret);
  });

  it('requires Stripe keys when PAYMENT_PROVIDER=stripe', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
  });

  it('requires ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.co' })).toThrow(/ADMIN_PASSWORD/);
  });

  it('never echoes a secret in its message', () => {
    try {
      loadConfig({ JWT_SECRET: 'tiny-secret' });
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain('tiny-secret');
    }
  });
});
