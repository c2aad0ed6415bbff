import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { createSecretBox, redact, SecretBoxError } from '../src/engine/venues/exchangeAccess';
import { maskApiKey } from '../src/exchange/service';
import { recordedExchange } from './recordedExchange';

/** Exchange credentials at rest: AES-256-GCM sealing, its master key from the configuration, masking and redaction. */

const KEY = randomBytes(32).toString('hex');

/** The value with one byte of one of its base64 parts changed. */
const tamper = (sealed: string, part: 1 | 2 | 3): string => {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part]!, 'base64');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[part] = bytes.toString('base64');
  return parts.join(':');
};

describe('secret box', () => {
  const box = createSecretBox(KEY);

  it.each(['vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A', '', 'pass phrase 口令 🔑', 'x'.repeat(4096)])(
    'seals and opens %#',
    (plaintext) => {
      const sealed = box.seal(plaintext, 'ctx');
      expect(sealed).toMatch(/^v1:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]*=*$/);
      const [, iv, tag] = sealed.split(':');
      expect(Buffer.from(iv!, 'base64')).toHaveLength(12);
      expect(Buffer.from(tag!, 'base64')).toHaveLength(16);
      if (plaintext) expect(sealed).not.toContain(plaintext);
      expect(box.open(sealed, 'ctx')).toBe(plaintext);
      // Another box with the same master key (the next process) opens it too.
      expect(createSecretBox(KEY.toUpperCase()).open(sealed, 'ctx')).toBe(plaintext);
    },
  );

  it('uses a fresh IV for every value', () => {
    const sealed = Array.from({ length: 50 }, () => box.seal('same secret'));
    expect(new Set(sealed).size).toBe(50);
    expect(new Set(sealed.map((value) => value.split(':')[1])).size).toBe(50);
    for (const value of sealed) expect(box.open(value)).toBe('same secret');
  });

  it('detects tampering with the IV, the tag or the ciphertext', () => {
    const sealed = box.seal('api secret', 'ctx');
    for (const part of [1, 2, 3] as const) {
      expect(() => box.open(tamper(sealed, part), 'ctx')).toThrow(SecretBoxError);
    }
  });

  it('does not open under another master key or another context', () => {
    const sealed = box.seal('api secret', 'exchange_accounts:user-a:secret');
    expect(() => createSecretBox(randomBytes(32).toString('hex')).open(sealed, 'exchange_accounts:user-a:secret')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'exchange_accounts:user-b:secret')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'exchange_accounts:user-a:apiKey')).toThrow(SecretBoxError);
    expect(() => box.open(sealed)).toThrow(SecretBoxError);
  });

  it.each(['', 'plain text', 'v2:a:b:c', 'v1:AAAA:BBBB', 'v1:!!!:AAAA:AAAA', `v1:${Buffer.alloc(8).toString('base64')}:${Buffer.alloc(16).toString('base64')}:AAAA`])(
    'refuses a malformed value %j',
    (value) => {
      expect(() => box.open(value)).toThrow(SecretBoxError);
    },
  );

  it('refuses a master key that is not 64 hex characters', () => {
    expect(() => createSecretBox('abc')).toThrow(SecretBoxError);
    expect(() => createSecretBox('z'.repeat(64))).toThrow(SecretBoxError);
  });
});

describe('exchange configuration', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const fresh = () => (root = mkdtempSync(join(tmpdir(), 'qt-exchange-config-')));

  it('generates the master key into the data folder with owner-only rights and keeps it across restarts', () => {
    const config = loadConfig({}, fresh());
    expect(config.exchangeMasterKey).toMatch(/^[0-9a-f]{64}$/);
    const file = join(root, 'data', 'secrets', 'exchange-master-key');
    expect(readFileSync(file, 'utf8').trim()).toBe(config.exchangeMasterKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({}, root).exchangeMasterKey).toBe(config.exchangeMasterKey);
    expect(config.exchangeMasterKey).not.toBe(config.tokenSecret);
  });

  it('takes EXCHANGE_MASTER_KEY and PAPER_START_USDT from the environment', () => {
    const key = randomBytes(32).toString('hex').toUpperCase();
    const config = loadConfig({ EXCHANGE_MASTER_KEY: key, PAPER_START_USDT: '2500.5' }, fresh());
    expect(config.exchangeMasterKey).toBe(key.toLowerCase());
    expect(config.paperStartUsdt).toBe('2500.5');
    expect(loadConfig({}, root).paperStartUsdt).toBe('10000');
  });

  it.each([
    [{ EXCHANGE_MASTER_KEY: 'abcd' }, /EXCHANGE_MASTER_KEY must hold 64 hex characters/],
    [{ EXCHANGE_MASTER_KEY: 'g'.repeat(64) }, /EXCHANGE_MASTER_KEY must hold 64 hex characters/],
    [{ PAPER_START_USDT: 'ten' }, /PAPER_START_USDT must be a positive decimal/],
    [{ PAPER_START_USDT: '0' }, /PAPER_START_USDT must be a positive decimal/],
    [{ PAPER_START_USDT: '-5' }, /PAPER_START_USDT must be a positive decimal/],
    [{ PAPER_START_USDT: '1.123456789' }, /PAPER_START_USDT must be a positive decimal/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv, fresh())).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv, root)).toThrow(message);
  });
});

describe('masking and redaction', () => {
  it.each([
    ['vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A', 'vmPU****Eh8A'],
    ['4a0b9d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', '4a0b****4d5e'],
    ['abcdefghijkl', 'ab****kl'],
    ['short', '****'],
  ])('masks %s as %s', (key, hint) => {
    expect(maskApiKey(key)).toBe(hint);
  });

  it('cuts every credential out of an exchange error text', () => {
    const text = 'htx GET https://api.huobi.pro/v1/account/accounts?AccessKeyId=e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx&Signature=abc 401 Unauthorized';
    const redacted = redact(text, { apiKey: 'e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx', secret: 'not-in-text', password: '' });
    expect(redacted).not.toContain('e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx');
    expect(redacted).toContain('AccessKeyId=[redacted]');
    expect(redact('y'.repeat(2000), {})).toHaveLength(501);
  });

  it('cuts a key out of a URL that carries it percent-encoded (a key with + / =)', () => {
    const apiKey = 'ab+cd/ef=gh+ij/kl==';
    const encoded = encodeURIComponent(apiKey);
    expect(encoded).toBe('ab%2Bcd%2Fef%3Dgh%2Bij%2Fkl%3D%3D');
    for (const form of [apiKey, encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())]) {
      const redacted = redact(`htx GET https://api.huobi.pro/v1/account/accounts?AccessKeyId=${form}&SignatureMethod=HmacSHA256`, { apiKey, secret: 's'.repeat(32) });
      expect(redacted).toContain('AccessKeyId=[redacted]&');
      expect(redacted).not.toContain('cd%2F');
      expect(redacted.toLowerCase()).not.toContain('cd%2fef');
    }
  });

  it("cuts the key out of ccxt's own HTX error, whose URL carries the key encoded", async () => {
    const apiKey = 'Zx9+Qw/Er=Ty8+Ui/Op==';
    const replay = recordedExchange();
    replay.failNetwork();
    const htx = replay.factory('htx', { apiKey, secret: 'htx-secret-1234' });
    htx.setMarkets({});
    const error = await htx.fetchBalance().then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).toContain(encodeURIComponent(apiKey));
    const redacted = redact(error!.message, { apiKey, secret: 'htx-secret-1234' });
    expect(redacted).toContain('AccessKeyId=[redacted]');
    expect(redacted).not.toContain(encodeURIComponent(apiKey));
    expect(redacted).not.toContain(apiKey);
  });
});
