import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Exchange credentials at rest: AES-256-GCM under the master key of the
 * configuration (EXCHANGE_MASTER_KEY, or the key generated into the data
 * folder on first run).
 *
 *   v1:<iv base64>:<auth tag base64>:<ciphertext base64>
 *
 * A fresh 12-byte IV per value. The optional context is authenticated but not
 * stored (GCM additional data): a value sealed for one user's API key does
 * not open as another user's, nor as a different field, if rows or columns
 * are swapped in the database. The version prefix leaves room for a later
 * key rotation.
 */
export interface SecretBox {
  seal(plaintext: string, context?: string): string;
  /** Throws on a malformed value, a wrong key, a wrong context or any tampering. */
  open(sealed: string, context?: string): string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export const createSecretBox = (masterKeyHex: string): SecretBox => {
  if (!/^[0-9a-fA-F]{64}$/.test(masterKeyHex)) throw new SecretBoxError('the master key must be 64 hex characters');
  const key = Buffer.from(masterKeyHex, 'hex');
  return {
    seal(plaintext, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
    },
    open(sealed, context = '') {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((part) => BASE64.test(part))) {
        throw new SecretBoxError('not a sealed value');
      }
      const iv = Buffer.from(parts[1]!, 'base64');
      const tag = Buffer.from(parts[2]!, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('the sealed value does not authenticate (wrong key, wrong context or tampered)');
      }
    },
  };
};
