import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenService } from './token-service.js';

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!!';
const claims = { userId: 'user-1', sessionEpoch: 3 };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const signWith = (header: object, payload: object, secret = SECRET) => {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
};
const later = Math.floor(Date.now() / 1000) + 3600;

describe('token service', () => {
  const tokens = tokenService(SECRET);

  it('verifies what it signs, and a standard library reads the same token', async () => {
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET));
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: 'user-1', ep: 3 });
    expect(payload.exp! - payload.iat!).toBe(7 * 24 * 3600);
  });

  it('accepts a token a standard library signed with the same secret', async () => {
    const token = await new SignJWT({ ep: 3 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses a token after 7 days, and one not yet valid', async () => {
    const signedAt = Date.now();
    const token = await tokenService(SECRET, () => signedAt).sign(claims);
    const at = (ms: number) => tokenService(SECRET, () => ms).verify(token);
    expect(await at(signedAt + 7 * 24 * 3600_000 - 1000)).toEqual(claims);
    expect(await at(signedAt + 7 * 24 * 3600_000)).toBeUndefined();
    const early = signWith({ alg: 'HS256' }, { sub: 'u', ep: 0, exp: later, nbf: later - 60 });
    expect(await tokens.verify(early)).toBeUndefined();
  });

  it('keeps a verified token until it expires, and still refuses its forged neighbours', async () => {
    let clock = Date.now();
    const service = tokenService(SECRET, () => clock);
    const token = await service.sign(claims);
    expect(await service.verify(token)).toEqual(claims);
    expect(await service.verify(token)).toEqual(claims);
    const [header, , signature] = token.split('.') as [string, string, string];
    const admin = `${header}.${b64({ sub: 'admin', ep: 3, exp: later })}.${signature}`;
    expect(await service.verify(admin)).toBeUndefined();
    clock += 7 * 24 * 3600_000;
    expect(await service.verify(token)).toBeUndefined();
  });

  it.each([
    ['no expiry', { alg: 'HS256' }, { sub: 'u', ep: 0 }],
    ['no subject', { alg: 'HS256' }, { ep: 0, exp: later }],
    ['no session epoch', { alg: 'HS256' }, { sub: 'u', exp: later }],
    [
      'a critical extension',
      { alg: 'HS256', crit: ['b64'], b64: false },
      { sub: 'u', ep: 0, exp: later },
    ],
    ['HS512', { alg: 'HS512' }, { sub: 'u', ep: 0, exp: later }],
    ['alg none', { alg: 'none' }, { sub: 'u', ep: 0, exp: later }],
  ])('refuses a correctly signed token with %s', async (_, header, payload) => {
    expect(await tokens.verify(signWith(header, payload))).toBeUndefined();
  });

  it('refuses every other spelling of a valid token', async () => {
    const token = await tokens.sign(claims);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // The last character of a 32-byte base64url MAC carries 2 spare bits: flipping one keeps
    // the same bytes but is not the canonical spelling.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const stray = alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1];
    for (const forged of [
      `${header}.${payload}.${signature.slice(0, -1)}${stray}`,
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature}.`,
      `${header}.${payload}`,
      `${header}.${payload}.`,
      `${header}..${signature}`,
      `${header}.${b64({ sub: 'admin', ep: 3, exp: later })}.${signature}`,
      signWith({ alg: 'HS256' }, { sub: 'u', ep: 0, exp: later }, 'another secret'),
      'not a token',
      '',
    ])
      expect(await tokens.verify(forged), forged).toBeUndefined();
  });

  it('refuses a payload that is not a JSON object', async () => {
    for (const body of ['bnVsbA', 'WzFd', 'e30x']) {
      const signed = `${b64({ alg: 'HS256' })}.${body}`;
      const mac = createHmac('sha256', SECRET).update(signed).digest('base64url');
      expect(await tokens.verify(`${signed}.${mac}`)).toBeUndefined();
    }
  });
});
