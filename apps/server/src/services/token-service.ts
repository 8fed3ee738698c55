import { jwtVerify, SignJWT } from 'jose';

const TOKEN_LIFETIME = '7d';

export interface TokenClaims {
  userId: string;
  sessionEpoch: number;
}

/** Session tokens: JWT HS256 only (no `none`, no algorithm confusion), 7-day expiry. */
export function tokenService(secret: string) {
  // Imported once: given the raw bytes, jose imports them through WebCrypto on every sign and
  // verify, a fifth of a signed-in request's CPU (bench/results/api-overhead.md).
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async sign({ userId, sessionEpoch }: TokenClaims): Promise<string> {
      return new SignJWT({ ep: sessionEpoch })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(TOKEN_LIFETIME)
        .sign(await key);
    },

    /** The claims of a valid token, or undefined for anything else. */
    async verify(token: string): Promise<TokenClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.ep !== 'number') return undefined;
        return { userId: payload.sub, sessionEpoch: payload.ep };
      } catch {
        return undefined;
      }
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;
