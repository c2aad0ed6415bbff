import { createHash, createHmac } from 'node:crypto';

/**
 * TRON (TRC20) addresses: version byte 0x41 plus the 20-byte account id,
 * written in Base58Check (a 4-byte double-SHA-256 checksum appended), which
 * makes them 34 characters starting with 'T'.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((char, index) => [char, BigInt(index)]));
const TRON_VERSION = 0x41;

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const checksum = (payload: Uint8Array): Buffer => sha256(sha256(payload)).subarray(0, 4);

export const base58Encode = (bytes: Uint8Array): string => {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
};

/** The bytes of a Base58 text, or null when it holds a character outside the alphabet. */
export const base58Decode = (text: string): Buffer | null => {
  let value = 0n;
  for (const char of text) {
    const digit = INDEX.get(char);
    if (digit === undefined) return null;
    value = value * 58n + digit;
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
};

export const base58CheckEncode = (payload: Uint8Array): string => base58Encode(Buffer.concat([payload, checksum(payload)]));

/** A well-formed TRON address: Base58Check, version 0x41, 20-byte id, checksum right. */
export const isTronAddress = (address: string): boolean => {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== TRON_VERSION) return false;
  return checksum(bytes.subarray(0, 21)).equals(bytes.subarray(21));
};

/**
 * The user's deposit address: derived from the user id with the server's
 * secret (HMAC-SHA-256), so it is the same on every start and no one can
 * compute another user's without the secret. Recharges record it; until a
 * chain watcher exists, operators match incoming transfers to it.
 */
export const depositAddressFor = (secret: string, userId: string): string => {
  const id = createHmac('sha256', secret).update(`deposit-address:${userId}`).digest().subarray(0, 20);
  return base58CheckEncode(Buffer.concat([Buffer.from([TRON_VERSION]), id]));
};
