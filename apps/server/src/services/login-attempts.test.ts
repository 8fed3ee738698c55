import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import { attemptLimiter } from './attempt-limiter.js';
import { LOGIN_LIMITS, loginAttempts } from './login-attempts.js';

const WINDOW = { max: 10, windowMs: 15 * 60 * 1000 };
const wrong = async (): Promise<never> => {
  throw new AppError(401, 'invalid_credentials', 'Email or password is incorrect');
};
const right = async () => 'session';

/** What an attempt ended in: the login's answer, or the error code. */
const outcome = (p: Promise<string>) =>
  p.then(
    (v) => v,
    (err: AppError) => err.code,
  );

describe('login attempts', () => {
  it('caps failures on one account from anywhere, the owner included', async () => {
    const guard = loginAttempts(attemptLimiter(WINDOW));
    const email = 'owner@example.com';
    for (let i = 0; i < LOGIN_LIMITS.perAccountHard; i += 1)
      await outcome(guard.attempt(email, `10.0.${i >> 8}.${i & 255}`, wrong));
    expect(await outcome(guard.attempt(email, '192.0.2.1', right))).toBe('too_many_requests');
    expect(await outcome(guard.attempt('other@example.com', '192.0.2.1', right))).toBe('session');
  });

  it('counts attempts before they run: 50 at once from one IP, 10 reach the password check', async () => {
    const guard = loginAttempts(attemptLimiter(WINDOW));
    let checked = 0;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        outcome(
          guard.attempt(`spray${i}@example.com`, '198.51.100.9', async () => {
            checked += 1;
            await new Promise((resolve) => setImmediate(resolve));
            return wrong();
          }),
        ),
      ),
    );
    expect(checked).toBe(LOGIN_LIMITS.perIp);
    expect(results.filter((r) => r === 'too_many_requests')).toHaveLength(40);
  });

  it('gives an attempt back when the login fails for another reason than the password', async () => {
    const guard = loginAttempts(attemptLimiter(WINDOW));
    const broken = async (): Promise<never> => {
      throw new Error('database down');
    };
    for (let i = 0; i < 20; i += 1)
      await outcome(guard.attempt('a@example.com', '198.51.100.10', broken));
    expect(await outcome(guard.attempt('a@example.com', '198.51.100.10', right))).toBe('session');
  });
});
