import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact HS256 JSON Web Tokens (RFC 7519) on node:crypto, signed and checked
 * synchronously: an HMAC of a few hundred bytes costs microseconds, while
 * WebCrypto's asynchronous HMAC queues on libuv's thread pool behind the
 * password hashing, so every authenticated call would wait for logins.
 *
 * A token passes only when: three base64url parts; a header of exactly
 * alg HS256 (no other algorithm, no "none") and typ JWT when given, without
 * `crit`; a signature equal (in constant time) to ours; a JSON object
 * payload whose iss is ours, whose exp is a number in the future, whose nbf,
 * when present, is a number not in the future, whose iat, when present, is a
 * number (as jose checks it: another server's clock may run a little ahead),
 * and whose aud is exactly the expected one (absent when none is expected).
 */
export type JwtPayload = Record<string, unknown>;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const mac = (key: Uint8Array, input: string) => createHmac('sha256', key).update(input).digest();

export const signJwt = (payload: JwtPayload, key: Uint8Array): string => {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${mac(key, body).toString('base64url')}`;
};

const parseJson = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface VerifyOptions {
  issuer: string;
  /** The audience the token must name; undefined: it must name none. */
  audience?: string;
  nowSeconds?: number;
}

/** The payload of a valid token, or null. */
export const verifyJwt = (token: string, key: Uint8Array, options: VerifyOptions): JwtPayload | null => {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !BASE64URL.test(signature)) return null;
  const expected = mac(key, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const head = parseJson(header);
  if (!isObject(head) || head.alg !== 'HS256' || 'crit' in head || (head.typ !== undefined && head.typ !== 'JWT')) return null;
  const claims = parseJson(payload);
  if (!isObject(claims)) return null;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (claims.iss !== options.issuer) return null;
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp) || claims.exp <= now) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return null;
  if (claims.iat !== undefined && typeof claims.iat !== 'number') return null;
  if (options.audience === undefined ? claims.aud !== undefined : claims.aud !== options.audience) return null;
  return claims;
};
