import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * scrypt (OWASP: N=2^17, r=8, p=1) with a 16-byte salt; the parameters are
 * stored with the hash so the cost can be raised without breaking old hashes.
 * Format: scrypt$N$r$p$salt(base64)$hash(base64).
 */
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export const hashPassword = async (password: string, N: number): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1);
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** A hash of nothing anyone knows, checked for unknown emails so both answers take as long. */
export const decoyHash = (N: number) => hashPassword(randomBytes(24).toString('hex'), N);

const common = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

/** Password rule: 8 to 128 characters, not one of the ~50 000 most common passwords, not the email itself. */
export const passwordProblem = (password: string, email: string): 'length' | 'common' | null => {
  if ([...password].length < 8 || [...password].length > 128) return 'length';
  const lower = password.toLowerCase();
  if (common.has(lower) || lower === email.toLowerCase() || lower === email.split('@')[0]?.toLowerCase()) return 'common';
  return null;
};
