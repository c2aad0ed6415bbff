/**
 * Request signing (spec section 7, design section 4).
 *
 *   sign = sha256_hex(METHOD + path + keyField1 + ... + keyFieldN + uuid + timestamp + secret)
 *
 * Plain concatenation, no separators, UTF-8. A missing optional field counts
 * as the empty string; booleans and numbers as their JSON text. The key
 * fields of every signed call, in their fixed order, are the table below: the
 * browser signs with it and the server verifies with it.
 *
 * The secret ships in the browser bundle, so the sign protects against
 * tampering and replay, not against a determined client: the bearer token is
 * what authenticates.
 */
import sha256 from 'crypto-js/sha256';
import Hex from 'crypto-js/enc-hex';

export const SIGNED_CALLS = {
  'POST /api/user/login': ['email', 'password'],
  'POST /api/user/register': ['email', 'nickname', 'password', 'secondPassword', 'captcha', 'inviteCode'],
  'POST /api/user/verify-code': ['email', 'type'],
  'POST /api/user/reset-password': ['email', 'newPassword', 'captcha'],
  'PUT /api/user/refresh': ['refreshToken'],
  'POST /api/user/change-password': ['oldPassword', 'newPassword'],
  'POST /api/user/change-email': ['email', 'captcha', 'password'],
  'POST /api/wallet/withdraw': ['amount', 'address', 'idempotencyKey'],
  'POST /api/wallet/transfer': ['to', 'amount', 'idempotencyKey'],
  'POST /api/wallet/exchange': ['from', 'to', 'amount', 'idempotencyKey'],
  'POST /api/wallet/points-transfer': ['to', 'amount', 'idempotencyKey'],
  'POST /api/trade/task/webhook': ['id', 'action'],
  'POST /api/trade/task/webhook/off': ['id'],
} as const satisfies Record<string, readonly string[]>;

export type SignedCall = keyof typeof SIGNED_CALLS;

/** Development default; production sets VITE_API_SIGN_SECRET (browser build) and API_SIGN_SECRET (server) to one value. */
export const DEV_SIGN_SECRET = 'quant-trader-dev-sign-secret';

export interface SignatureFields {
  uuid: string;
  timestamp: number;
  sign: string;
}

export const signedCallKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

export const isSignedCall = (method: string, path: string): boolean =>
  Object.prototype.hasOwnProperty.call(SIGNED_CALLS, signedCallKey(method, path));

export const keyFieldsOf = (method: string, path: string): readonly string[] => {
  const key = signedCallKey(method, path);
  if (!isSignedCall(method, path)) throw new Error(`${key} is not a signed call`);
  return SIGNED_CALLS[key as SignedCall];
};

const fieldText = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};

/** The exact text that is hashed; exported so the test vectors can show it. */
export const signingText = (
  method: string,
  path: string,
  body: Record<string, unknown>,
  uuid: string,
  timestamp: number,
  secret: string,
): string =>
  method.toUpperCase() +
  path +
  keyFieldsOf(method, path)
    .map((field) => fieldText(body[field]))
    .join('') +
  uuid +
  String(timestamp) +
  secret;

export const computeSign = (
  method: string,
  path: string,
  body: Record<string, unknown>,
  uuid: string,
  timestamp: number,
  secret: string,
): string => sha256(signingText(method, path, body, uuid, timestamp, secret)).toString(Hex);

/** A random 128-bit id as 32 lowercase hex characters (a v4 uuid without dashes). */
export const newRequestId = (): string => {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

export const unixSeconds = (nowMs: number = Date.now()): number => Math.floor(nowMs / 1000);

/** Adds uuid, timestamp and sign to the body of a signed call. */
export const signBody = <T extends object>(
  method: string,
  path: string,
  body: T,
  secret: string,
  now: { uuid?: string; timestamp?: number } = {},
): T & SignatureFields => {
  const uuid = now.uuid ?? newRequestId();
  const timestamp = now.timestamp ?? unixSeconds();
  const sign = computeSign(method, path, body as Record<string, unknown>, uuid, timestamp, secret);
  return { ...body, uuid, timestamp, sign };
};

export const SIGN_WINDOW_SECONDS = 60;
