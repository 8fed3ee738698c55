import { AppError } from '../lib/app-error.js';
import { clientKey, tooManyAttempts, type AttemptLimiter } from './attempt-limiter.js';

/**
 * Failed logins allowed in one window (the limiter's, 15 minutes). Failures are counted, not
 * successes: a correct password gives its attempt back.
 * - perIp: from one client (an IPv4 address or IPv6 /64), over every account: guessing and
 *   spraying from one place.
 * - perAccount: on one account, from anywhere. Past it the account is under attack, and only a
 *   client with no failure on it this window may try; so the owner, signing in from their own
 *   network, is not locked out by someone else's guesses, while each other client gets one guess.
 * - perAccountHard: on one account from anywhere, then nobody may try: it caps guessing from
 *   many addresses, at the price that 100 failures from about 90 networks lock the owner out too.
 */
export const LOGIN_LIMITS = { perIp: 10, perAccount: 10, perAccountHard: 100 };

export function loginAttempts(limiter: AttemptLimiter, limits = LOGIN_LIMITS) {
  return {
    /**
     * Runs `login` for `email` (already normalised) from `ip` if the limits allow: 429 with
     * Retry-After if not. Each attempt is counted before it runs, so parallel attempts cannot
     * slip past a limit, and given back unless it ended in invalid_credentials. A success also
     * forgets this client's failures on the account.
     */
    async attempt<T>(email: string, ip: string, login: () => Promise<T>): Promise<T> {
      const client = clientKey(ip);
      const ipKey = `login:ip:${client}`;
      const accountKey = `login:email:${email}`;
      const pairKey = `login:email-ip:${email}|${client}`;
      const keys = [ipKey, accountKey, pairKey];
      const [byIp, byAccount, byPair] = await limiter.take(keys);
      let refusal: number | undefined;
      if (byIp!.count > limits.perIp) refusal = byIp!.retryAfterMs;
      else if (byAccount!.count > limits.perAccountHard) refusal = byAccount!.retryAfterMs;
      else if (byAccount!.count > limits.perAccount && byPair!.count > 1)
        refusal = Math.min(byAccount!.retryAfterMs, byPair!.retryAfterMs);
      if (refusal !== undefined) {
        await limiter.giveBack(keys);
        throw tooManyAttempts(refusal);
      }
      try {
        const result = await login();
        await limiter.giveBack([ipKey, accountKey]);
        await limiter.clear([pairKey]);
        return result;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'invalid_credentials'))
          await limiter.giveBack(keys);
        throw err;
      }
    },
  };
}

export type LoginAttempts = ReturnType<typeof loginAttempts>;
