import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { PUSH_SERVICE_CA } from './fakes/pushService';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));
const fresh = () => (root = mkdtempSync(join(tmpdir(), 'qt-config-')));

describe('configuration', () => {
  it('has safe defaults: port 3000, ./data, PGlite, a token secret generated into the data folder with owner-only rights', () => {
    const config = loadConfig({}, fresh());
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', dataDir: join(root, 'data'), databaseUrl: undefined, corsOrigins: [] });
    const secretFile = join(root, 'data', 'secrets', 'token-secret');
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(config.tokenSecret);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    // The same secret on the next start: sessions survive a restart.
    expect(loadConfig({}, root).tokenSecret).toBe(config.tokenSecret);
  });

  it('generates the VAPID key pair into the data folder once; no bot token, no Telegram', () => {
    const config = loadConfig({}, fresh());
    expect(config.vapidKeys?.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    const file = join(root, 'data', 'secrets', 'vapid-keys');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({}, root).vapidKeys).toEqual(config.vapidKeys);
    expect(config).toMatchObject({ telegramBotToken: undefined, webhookAllowPrivateAddresses: false });
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '123456:AAH-abcdefghijklmnopqrstuv', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }, root)).toMatchObject({
      telegramBotToken: '123456:AAH-abcdefghijklmnopqrstuv',
      webhookAllowPrivateAddresses: true,
    });
    // PUSH_CA_FILE: certificates web push trusts besides the system's (a file that is not PEM stops the start).
    const pem = join(root, 'push-ca.pem');
    writeFileSync(pem, PUSH_SERVICE_CA);
    expect(loadConfig({ PUSH_CA_FILE: pem }, root).pushCa).toBe(PUSH_SERVICE_CA);
    expect(config.pushCa).toBeUndefined();
    writeFileSync(pem, 'not a certificate');
    expect(() => loadConfig({ PUSH_CA_FILE: pem }, root)).toThrow(/PUSH_CA_FILE must name a file of PEM certificates/);
    expect(() => loadConfig({ PUSH_CA_FILE: join(root, 'missing.pem') }, root)).toThrow(/PUSH_CA_FILE must name a readable file/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL must start with smtp:/],
    [{ CORS_ORIGINS: 'https://partner.example/path' }, /must be an origin without path/],
    [{ CORS_ORIGINS: 'partner' }, /not an origin/],
    [{ TOKEN_SECRET: 'short' }, /TOKEN_SECRET must be at least 32 characters/],
    [{ SCRYPT_COST: '3000' }, /SCRYPT_COST must be a power of two/],
    [{ DEMO_ACCOUNT: 'maybe' }, /DEMO_ACCOUNT must be true or false/],
    [{ TELEGRAM_BOT_TOKEN: 'not-a-token' }, /TELEGRAM_BOT_TOKEN must be a bot token/],
    [{ TELEGRAM_API_ROOT: 'ftp://x' }, /TELEGRAM_API_ROOT must start with http:/],
    [{ VAPID_PUBLIC_KEY: 'B'.repeat(87) }, /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must both be set/],
    [{ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', NODE_ENV: 'production' }, /cannot be set with NODE_ENV=production/],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv, fresh())).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv, root)).toThrow(message);
  });

  it('reads the documented variables', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: 'var',
        DATABASE_URL: 'postgresql://u@db/quant',
        API_SIGN_SECRET: 'sign-secret',
        TOKEN_SECRET: 'x'.repeat(40),
        SMTP_URL: 'smtps://user:pass@mail.example:465',
        CORS_ORIGINS: 'https://a.example, https://b.example',
        ACCESS_TOKEN_TTL: '600',
      },
      fresh(),
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: join(root, 'var'),
      databaseUrl: 'postgresql://u@db/quant',
      signSecret: 'sign-secret',
      tokenSecret: 'x'.repeat(40),
      corsOrigins: ['https://a.example', 'https://b.example'],
      accessTokenTtlSeconds: 600,
    });
  });
});
