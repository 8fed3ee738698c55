import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface TokenClaims {
  userId: string;
  sessionEpoch: number;
}

/**
 * Session tokens: JWT HS256 with a 7-day expiry, signed and checked with node:crypto's HMAC.
 * A library verifying through WebCrypto (jose) took a fifth of a signed-in request's CPU
 * (bench/results/api-overhead.md); this is synchronous and does one HMAC.
 *
 * Verification accepts only `alg: HS256` (and no `crit` extension), so `none`, HS384/HS512 and
 * RS256 (the algorithm-confusion tricks) are refused before any signature is computed; the
 * signature is compared in constant time; the payload must name a subject, a session epoch and
 * an expiry still in the future.
 */
export function tokenService(secret: string, now: () => number = Date.now) {
  const mac = (signed: string) => createHmac('sha256', secret).update(signed).digest();
  const verified = verifiedTokens();

  return {
    async sign({ userId, sessionEpoch }: TokenClaims): Promise<string> {
      const iat = Math.floor(now() / 1000);
      const claims = { ep: sessionEpoch, sub: userId, iat, exp: iat + TOKEN_LIFETIME_SECONDS };
      const signed = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${signed}.${mac(signed).toString('base64url')}`;
    },

    /** The claims of a valid token, or undefined for anything else. */
    async verify(token: string): Promise<TokenClaims | undefined> {
      const known = verified.get(token, now());
      if (known) return known;
      const checked = check(token);
      if (!checked) return undefined;
      verified.add(token, checked);
      return checked.claims;
    },
  };

  function check(token: string): Verified | undefined {
    const [header, payload, signature, extra] = token.split('.');
    if (!header || !payload || !signature || extra !== undefined) return undefined;
    if (![header, payload, signature].every((part) => BASE64URL.test(part))) return undefined;
    const { alg, crit } = decodeJson(header) ?? {};
    if (alg !== 'HS256' || crit !== undefined) return undefined;
    const expected = mac(`${header}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    // Re-encoding refuses a signature with stray trailing bits (one MAC, many spellings).
    if (given.length !== expected.length || given.toString('base64url') !== signature)
      return undefined;
    if (!timingSafeEqual(given, expected)) return undefined;
    return claimsOf(payload, now());
  }
}

interface Verified {
  claims: TokenClaims;
  expiresAtMs: number;
}

/** Tokens kept at most; the least recently used go first. */
const KEPT_TOKENS = 10_000;

/**
 * Tokens already verified, by their exact text, until they expire: a dashboard or a batch page
 * sends the same token many times a minute, and checking it (base64, JSON, an HMAC) was about a
 * tenth of a signed-in stats request's CPU. Only tokens that passed are kept, so a forged one is
 * checked every time; the session's epoch is still compared with the user's row on every request,
 * so signing out everywhere ends a kept token at once.
 */
function verifiedTokens() {
  const byText = new Map<string, Verified>();
  return {
    get(token: string, nowMs: number): TokenClaims | undefined {
      const kept = byText.get(token);
      if (!kept) return undefined;
      byText.delete(token);
      if (kept.expiresAtMs <= nowMs) return undefined;
      byText.set(token, kept); // the newest use goes to the end
      return kept.claims;
    },
    add(token: string, verified: Verified) {
      byText.set(token, verified);
      if (byText.size > KEPT_TOKENS) byText.delete(byText.keys().next().value!);
    },
  };
}

/** A base64url JSON object, or undefined when it is not one. */
function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function claimsOf(payload: string, nowMs: number): Verified | undefined {
  const claims = decodeJson(payload);
  if (!claims) return undefined;
  const { sub, ep, exp, nbf } = claims;
  if (typeof sub !== 'string' || typeof ep !== 'number' || typeof exp !== 'number')
    return undefined;
  const nowSeconds = nowMs / 1000;
  if (exp <= nowSeconds) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) return undefined;
  return { claims: { userId: sub, sessionEpoch: ep }, expiresAtMs: exp * 1000 };
}

export type TokenService = ReturnType<typeof tokenService>;
