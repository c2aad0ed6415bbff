import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isTestnetExchange, TESTNET_EXCHANGES } from '../../src/api/exchange';
import { DEV_SIGN_SECRET } from '../../src/api/signing';
import type { OhlcvCandle } from '../../src/api/trade';
import { TRADINGVIEW_ADDRESSES } from '../../src/api/webhook';
import { generateVapidKeys } from './notify/channels/vapid';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  signSecret: string;
  tokenSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Origins allowed to call the API from a browser (partner sites embedding the widgets). */
  corsOrigins: string[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** A just-rotated refresh token may be rotated again this long (two tabs refreshing at once). */
  refreshGraceSeconds: number;
  /** scrypt cost N (a power of two). */
  scryptCost: number;
  /** Folder of the built dashboard; served at / when it exists. */
  dashboardDir: string | undefined;
  /** Folder of the built widgets, served at /widgets/ when it exists (default: dist-widgets in the working folder). */
  widgetsDir?: string | undefined;
  demoAccount: boolean;
  logLevel: string;
  trustProxy: boolean;
  /** AES-256 key (64 hex characters) that encrypts the exchange API keys users bind. */
  exchangeMasterKey: string;
  /** Virtual USDT a new paper-trading account starts with (decimal string). */
  paperStartUsdt: string;
  /** Paper accounts one user may have (PAPER_ACCOUNTS_MAX, default 20). */
  paperAccountsMax: number;
  /** Days the simulator's minute candles are kept before they are rolled up into hourly ones (PAPER_MINUTES_DAYS, default 7). */
  paperMinutesDays: number;
  /** Backtest uploads being received at once: per user and in all (BACKTEST_UPLOADS_PER_USER 2, BACKTEST_UPLOADS_TOTAL 4). */
  backtestUploadsPerUser: number;
  backtestUploadsTotal: number;
  /** Seed of the simulated market (the same seed replays the same prices). */
  paperSeed: number;
  /** Milliseconds between engine ticks; 0 ticks only on demand (tests). */
  engineTickMs: number;
  /** Several engine processes (PostgreSQL): how long a shard lease lasts unrenewed; a dead process's shards move within about 1.25 times it. */
  engineLeaseMs: number;
  /** Recorded candles the paper market replays instead of its random walk (PAPER_REPLAY, read by startup.ts); unset: the walk. */
  paperReplay?: PaperReplay | undefined;
  /**
   * ENGINE: `on` (the API and the trading engine), `off` (the API only: other
   * processes drive the tasks), `only` (the engine only, no HTTP). Several
   * processes need PostgreSQL; the embedded database is one process's.
   */
  engine?: 'on' | 'off' | 'only';
  /** The addresses TradingView alerts are taken from (TRADINGVIEW_ADDRESSES); unset or null: any. */
  tradingViewAddresses?: readonly string[] | null | undefined;
  /** The dashboard's public address (PUBLIC_URL), for absolute links in notifications; unset: none. */
  publicUrl?: string | undefined;
  /** TELEGRAM_BOT_TOKEN: unset, no Telegram channel anywhere. */
  telegramBotToken?: string | undefined;
  /** The Bot API's root (TELEGRAM_API_ROOT; tests point it at a local fake). */
  telegramApiRoot?: string | undefined;
  /** Web push's VAPID key pair (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, else generated into the data folder). */
  vapidKeys?: { publicKey: string; privateKey: string } | undefined;
  /** Lets webhooks and push endpoints reach loopback and private addresses (tests, closed networks); never with NODE_ENV=production. */
  webhookAllowPrivateAddresses?: boolean;
  /** PUSH_CA_FILE: PEM certificates web push trusts besides the system's (a closed network's push service, tests); unset: the system's only. */
  pushCa?: string | undefined;
  /** EXCHANGE_TESTNET_URLS (a test setting): testnet account types sent to another server, e.g. a local exchange; never with NODE_ENV=production. */
  exchangeTestnetUrls?: Record<string, string> | undefined;
}

export interface PaperReplay {
  /** The file, as given. */
  file: string;
  /** The pair the candles are of: it trades with that paper market's precisions and minimums. */
  symbol: string;
  /** Candles (ticks) per second; 'max': as fast as the engine keeps up. */
  speed: number | 'max';
  candles: OhlcvCandle[];
  /** Milliseconds per candle. */
  interval: number;
}

/**
 * TRADINGVIEW_ADDRESSES: unset, alerts from any address; `tradingview`, only
 * from the addresses TradingView documents; or a comma-separated list of IP
 * addresses. Null: any address.
 */
const alertAddresses = (env: NodeJS.ProcessEnv): readonly string[] | null => {
  const text = env.TRADINGVIEW_ADDRESSES?.trim();
  if (!text) return null;
  if (text === 'tradingview') return TRADINGVIEW_ADDRESSES;
  const list = text.split(',').map((part) => part.trim()).filter(Boolean);
  const bad = list.find((address) => isIP(address) === 0);
  if (bad !== undefined) throw new ConfigError(`TRADINGVIEW_ADDRESSES: "${bad}" is not an IP address (or say "tradingview")`);
  return list;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const integer = (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
};

const bool = (env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};

/** EXCHANGE_TESTNET_URLS: `binance-testnet=http://127.0.0.1:4100,okx-testnet=http://127.0.0.1:4200`. */
const testnetUrls = (env: NodeJS.ProcessEnv): Record<string, string> | undefined => {
  const raw = env.EXCHANGE_TESTNET_URLS?.trim();
  if (!raw) return undefined;
  if (env.NODE_ENV === 'production') throw new ConfigError('EXCHANGE_TESTNET_URLS cannot be set with NODE_ENV=production');
  const urls: Record<string, string> = {};
  for (const entry of raw.split(',')) {
    const at = entry.indexOf('=');
    const type = entry.slice(0, at).trim();
    const address = entry.slice(at + 1).trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(address);
    } catch {
      parsed = undefined;
    }
    if (at < 1 || !isTestnetExchange(type) || !parsed || !['http:', 'https:'].includes(parsed.protocol)) {
      throw new ConfigError(`EXCHANGE_TESTNET_URLS must list <testnet type>=<http(s) URL> pairs (${Object.keys(TESTNET_EXCHANGES).join(', ')}), got "${entry.trim()}"`);
    }
    urls[type] = address;
  }
  return urls;
};

const url = (env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined => {
  const raw = env[name];
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
};

/** A secret from the environment, else one generated on first run into the data folder (owner-only). */
export const persistentSecret = (dataDir: string, name: string, generate: () => string = () => randomBytes(32).toString('hex')): string => {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = generate();
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
};

/** VAPID keys from the environment (both or neither), else a pair generated on first run into the data folder. */
/** A file of PEM certificates named by the variable; unset: undefined. */
const pemFile = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const file = env[name];
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`${name} must name a readable file of PEM certificates, got "${file}"`);
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) throw new ConfigError(`${name} must name a file of PEM certificates (-----BEGIN CERTIFICATE-----), got "${file}"`);
  return text;
};

const vapidKeys = (env: NodeJS.ProcessEnv, dataDir: string): { publicKey: string; privateKey: string } => {
  const base64url = /^[A-Za-z0-9_-]{40,100}$/;
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) {
    const publicKey = env.VAPID_PUBLIC_KEY ?? '';
    const privateKey = env.VAPID_PRIVATE_KEY ?? '';
    if (!base64url.test(publicKey) || !base64url.test(privateKey)) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must both be set, base64url (npx web-push generate-vapid-keys)');
    return { publicKey, privateKey };
  }
  const stored = persistentSecret(dataDir, 'vapid-keys', () => JSON.stringify(generateVapidKeys()));
  try {
    const keys = JSON.parse(stored) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string' && base64url.test(keys.publicKey) && base64url.test(keys.privateKey)) {
      return { publicKey: keys.publicKey, privateKey: keys.privateKey };
    }
  } catch {
    // Reported below.
  }
  throw new ConfigError(`${join(dataDir, 'secrets', 'vapid-keys')} must hold the JSON of a VAPID key pair ({"publicKey","privateKey"})`);
};

const engineMode = (env: NodeJS.ProcessEnv): 'on' | 'off' | 'only' => {
  const raw = env.ENGINE || 'on';
  if (raw !== 'on' && raw !== 'off' && raw !== 'only') throw new ConfigError(`ENGINE must be on, off or only, got "${raw}"`);
  if (raw !== 'on' && !env.DATABASE_URL) {
    throw new ConfigError(`ENGINE=${raw} splits the API and the engine into several processes, which needs DATABASE_URL: the embedded database is one process's`);
  }
  return raw;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env, root: string = process.cwd()): ServerConfig => {
  const dataDir = resolve(root, env.DATA_DIR || 'data');
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR "${dataDir}" cannot be created: ${(error as Error).message}`);
  }
  const tokenSecret = env.TOKEN_SECRET || persistentSecret(dataDir, 'token-secret');
  if (tokenSecret.length < 32) throw new ConfigError('TOKEN_SECRET must be at least 32 characters');
  const signSecret = env.API_SIGN_SECRET || DEV_SIGN_SECRET;

  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin like https://partner.example`);
    }
    if (parsed.origin !== origin) throw new ConfigError(`CORS_ORIGINS: "${origin}" must be an origin without path, e.g. ${parsed.origin}`);
  }

  const scryptCost = integer(env, 'SCRYPT_COST', 2 ** 17, 2 ** 10, 2 ** 20);
  if ((scryptCost & (scryptCost - 1)) !== 0) throw new ConfigError('SCRYPT_COST must be a power of two');

  const dashboardDir = resolve(root, env.DASHBOARD_DIR || 'dist');

  const exchangeMasterKey = env.EXCHANGE_MASTER_KEY || persistentSecret(dataDir, 'exchange-master-key');
  if (!/^[0-9a-fA-F]{64}$/.test(exchangeMasterKey)) {
    const source = env.EXCHANGE_MASTER_KEY ? 'EXCHANGE_MASTER_KEY' : join(dataDir, 'secrets', 'exchange-master-key');
    throw new ConfigError(`${source} must hold 64 hex characters (32 bytes)`);
  }
  const paperStartUsdt = env.PAPER_START_USDT || '10000';
  if (!/^(0|[1-9][0-9]{0,14})(\.[0-9]{1,8})?$/.test(paperStartUsdt) || /^0(\.0*)?$/.test(paperStartUsdt)) {
    throw new ConfigError(`PAPER_START_USDT must be a positive decimal number with at most 8 decimals, got "${paperStartUsdt}"`);
  }

  const telegramBotToken = env.TELEGRAM_BOT_TOKEN || undefined;
  if (telegramBotToken && !/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/.test(telegramBotToken)) {
    throw new ConfigError('TELEGRAM_BOT_TOKEN must be a bot token as @BotFather gives it (<digits>:<letters>)');
  }
  const webhookAllowPrivateAddresses = bool(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES', false);
  if (webhookAllowPrivateAddresses && env.NODE_ENV === 'production') {
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE_ADDRESSES cannot be set with NODE_ENV=production');
  }
  const pushCa = pemFile(env, 'PUSH_CA_FILE');
  const exchangeTestnetUrls = testnetUrls(env);

  return {
    telegramBotToken,
    telegramApiRoot: url(env, 'TELEGRAM_API_ROOT', ['http:', 'https:']),
    vapidKeys: vapidKeys(env, dataDir),
    webhookAllowPrivateAddresses,
    pushCa,
    exchangeTestnetUrls,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    signSecret,
    tokenSecret,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'Quant Trader <no-reply@quant-trader.local>',
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']),
    tradingViewAddresses: alertAddresses(env),
    corsOrigins,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL', 15 * 60, 5, 24 * 3600),
    refreshTokenTtlDays: integer(env, 'REFRESH_TOKEN_TTL_DAYS', 30, 1, 365),
    refreshGraceSeconds: integer(env, 'REFRESH_GRACE_SECONDS', 10, 0, 120),
    scryptCost,
    dashboardDir: existsSync(join(dashboardDir, 'index.html')) ? dashboardDir : undefined,
    demoAccount: bool(env, 'DEMO_ACCOUNT', true),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: bool(env, 'TRUST_PROXY', false),
    exchangeMasterKey: exchangeMasterKey.toLowerCase(),
    paperStartUsdt,
    paperAccountsMax: integer(env, 'PAPER_ACCOUNTS_MAX', 20, 1, 10_000),
    paperMinutesDays: integer(env, 'PAPER_MINUTES_DAYS', 7, 1, 3650),
    backtestUploadsPerUser: integer(env, 'BACKTEST_UPLOADS_PER_USER', 2, 1, 100),
    backtestUploadsTotal: integer(env, 'BACKTEST_UPLOADS_TOTAL', 4, 1, 1000),
    paperSeed: integer(env, 'PAPER_SEED', Math.floor(Date.now() / 1000) % 2 ** 31, 0, 2 ** 31 - 1),
    engineTickMs: integer(env, 'ENGINE_TICK_MS', 1000, 0, 60_000),
    engineLeaseMs: integer(env, 'ENGINE_LEASE_MS', 8000, 1000, 60_000),
    engine: engineMode(env),
  };
};
