import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './auth';
import { signJwt, verifyJwt } from './jwt';

const key = randomBytes(32);
const now = 1_800_000_000;
const claims = { sub: '6f1c1d5e-3f2a-4c47-9a4e-0d8c9b2f1a10', sid: 'b7e2a0c4-5d1f-4e8a-8c3b-2a9f0e1d7c65', iss: 'quant-trader', iat: now, exp: now + 900 };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header and payload, signed with `key` (or another). */
const forge = async (header: object, payload: object, with_ = key) =>
  new SignJWT(payload as Record<string, unknown>).setProtectedHeader(header as { alg: string }).sign(with_);

describe('HS256 tokens on node:crypto', () => {
  it('reads its own tokens and those jose signs, and jose reads its tokens', async () => {
    const ours = signJwt(claims, key);
    expect(verifyJwt(ours, key, { issuer: 'quant-trader', nowSeconds: now })).toEqual(claims);
    const { payload } = await jwtVerify(ours, key, { issuer: 'quant-trader', algorithms: ['HS256'], currentDate: new Date(now * 1000) });
    expect(payload).toEqual(claims);
    const theirs = await forge({ alg: 'HS256', typ: 'JWT' }, claims);
    expect(verifyJwt(theirs, key, { issuer: 'quant-trader', nowSeconds: now })).toEqual(claims);
  });

  it('refuses another key, a changed payload, other algorithms and malformed tokens', async () => {
    const ours = signJwt(claims, key);
    const [header, , signature] = ours.split('.');
    const refused = [
      signJwt(claims, randomBytes(32)),
      `${header}.${b64({ ...claims, role: 'operator' })}.${signature}`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      `${b64({ alg: 'none' })}.${b64(claims)}.${signature}`,
      await forge({ alg: 'HS512', typ: 'JWT' }, claims),
      await forge({ alg: 'HS256', typ: 'JWT', crit: ['b64'], b64: true }, claims),
      await forge({ alg: 'HS256', typ: 'at+jwt' }, claims),
      'not-a-token',
      `${ours}.extra`,
      `${header}.${b64([claims])}.${signature}`,
      `${header}..${signature}`,
      `${header}.${'%'.repeat(20)}.${signature}`,
    ];
    for (const token of refused) expect(verifyJwt(token, key, { issuer: 'quant-trader', nowSeconds: now }), token).toBeNull();
  });

  it('checks the issuer, the expiry, not-before, iat and the audience', async () => {
    const check = (payload: object, audience?: string) =>
      verifyJwt(signJwt(payload as Record<string, unknown>, key), key, { issuer: 'quant-trader', nowSeconds: now, ...(audience ? { audience } : {}) });
    expect(check({ ...claims, iss: 'someone-else' })).toBeNull();
    expect(check({ ...claims, exp: now })).toBeNull();
    expect(check({ ...claims, exp: now - 1 })).toBeNull();
    expect(check({ ...claims, exp: String(now + 60) })).toBeNull();
    expect(check({ ...claims, exp: undefined })).toBeNull();
    expect(check({ ...claims, nbf: now + 5 })).toBeNull();
    expect(check({ ...claims, nbf: now })).not.toBeNull();
    expect(check({ ...claims, iat: 'yesterday' })).toBeNull();
    // An access token names no audience; a widget token must name its own.
    expect(check({ ...claims, aud: 'qt-widget' })).toBeNull();
    expect(check(claims, 'qt-widget')).toBeNull();
    expect(check({ ...claims, aud: 'elsewhere' }, 'qt-widget')).toBeNull();
    expect(check({ ...claims, aud: 'qt-widget' }, 'qt-widget')).not.toBeNull();
  });
});

describe('access tokens verified once and kept', () => {
  it('keeps a passed token only until its expiry, and never lets another text pass by it', async () => {
    const tokens = createAccessTokens('k'.repeat(40), 60);
    const now = 1_800_000_000;
    const token = await tokens.issue({ id: 'u1', sessionId: 's1', role: 'user' }, now);
    expect(tokens.verify(token, now + 1)).toEqual({ id: 'u1', sessionId: 's1', role: 'user' });
    // Kept: the same text passes again, as a fresh object each time.
    const again = tokens.verify(token, now + 2)!;
    again.role = 'operator';
    expect(tokens.verify(token, now + 3)).toEqual({ id: 'u1', sessionId: 's1', role: 'user' });
    // Expired: refused although it passed before.
    expect(tokens.verify(token, now + 60)).toBeNull();
    // Another signature or payload under the kept token's text never passes.
    const [head, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(tokens.verify(`${head}.${body}.${flipped}`, now + 1)).toBeNull();
    const forged = Buffer.from(JSON.stringify({ sid: 's1', role: 'operator', sub: 'u1', iss: 'quant-trader', iat: now, exp: now + 60 })).toString('base64url');
    expect(tokens.verify(`${head}.${forged}.${signature}`, now + 1)).toBeNull();
    // Another key's token is refused.
    expect(createAccessTokens('o'.repeat(40), 60).verify(token, now + 1)).toBeNull();
  });
});
