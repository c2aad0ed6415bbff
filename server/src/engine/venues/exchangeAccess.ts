/**
 * The one way into a real exchange: ccxt instances (REST and websocket), the
 * settings every instance gets, the credentials a user binds, and their
 * sealing at rest. The engine's venues, the ticker feed, the backtest
 * history, the price sources and the exchange accounts' key check all make
 * their ccxt instances and open or seal keys here, and nowhere else.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import ccxt, { type Exchange } from 'ccxt';
import { isTestnetExchange, TESTNET_EXCHANGES, type CredentialField } from '../../../../src/api/exchange';
import type { ExchangeAccountsTable } from '../../db/schema';

// ------------------------------------------------------------------ ccxt instances

export type Credentials = Partial<Record<CredentialField, string>> & { apiKey: string; secret: string };

/** What the ccxt constructor receives: the credentials (none for a public client: markets, prices, candles) plus our client settings. */
export type ExchangeSettings = Partial<Credentials> & Record<string, unknown>;

/** Builds a ccxt instance; tests pass one whose HTTP layer replays recorded responses. */
export type ExchangeFactory = (exchangeId: string, settings: ExchangeSettings) => Exchange;

type ExchangeClass = new (settings?: Record<string, unknown>) => Exchange;
const exchangeClasses = ccxt as unknown as Record<string, ExchangeClass>;

export const createCcxtExchange: ExchangeFactory = (exchangeId, settings) => {
  const Class = exchangeClasses[exchangeId];
  if (!ccxt.exchanges.includes(exchangeId) || !Class) throw new Error(`ccxt has no exchange ${exchangeId}`);
  return new Class(settings);
};

/** The ccxt id of an account's exchange: a testnet type's live exchange, else the id itself. */
export const ccxtIdOf = (accountExchange: string): string => TESTNET_EXCHANGES[accountExchange] ?? accountExchange;

/**
 * The ccxt instance of an account's exchange: a testnet type is the live
 * exchange's class in ccxt's sandbox mode (`sandbox: true`, which its
 * constructor turns into setSandboxMode(true): the test URLs, OKX's
 * demo-trading header), so it trades through the same path as a live
 * account. A factory that points ccxt at a local exchange after building
 * the instance keeps its own URLs for testnets too.
 */
export const openAccountExchange = (factory: ExchangeFactory, accountExchange: string, settings: ExchangeSettings): Exchange =>
  factory(ccxtIdOf(accountExchange), isTestnetExchange(accountExchange) ? { ...settings, sandbox: true } : settings);

/**
 * Testnet accounts sent to other servers (EXCHANGE_TESTNET_URLS, a test
 * setting: a local exchange that speaks the testnet's protocol). ccxt keeps
 * its sandbox URLs, so it signs and maps errors as it does for the real
 * testnet; only the connection of a sandbox instance goes to the given base
 * address. Live instances are untouched. Undefined when nothing is redirected
 * and no factory was given (the product's defaults stay).
 */
export const pointTestnets = (factory: ExchangeFactory | undefined, urls: Readonly<Record<string, string>> | undefined): ExchangeFactory | undefined => {
  if (!urls || Object.keys(urls).length === 0) return factory;
  const base = factory ?? createCcxtExchange;
  return (exchangeId, settings) => {
    const testnet = Object.keys(TESTNET_EXCHANGES).find((type) => TESTNET_EXCHANGES[type] === exchangeId);
    const target = settings.sandbox === true && testnet ? urls[testnet] : undefined;
    if (!target) return base(exchangeId, settings);
    const root = target.replace(/\/+$/, '');
    const fetchImplementation = (url: string, init: RequestInit) => fetch(root + url.slice(new URL(url).origin.length), init);
    return base(exchangeId, { ...settings, fetchImplementation });
  };
};

/** Every exchange id ccxt knows. */
export const ccxtExchangeIds = (): readonly string[] => ccxt.exchanges;

/**
 * Settings of every ccxt instance the engine makes. ccxt spaces requests to
 * the exchange's published limits; the engine trades spot: no derivative or
 * margin market lists, and no currency list (a private call on Binance and
 * OKX that the engine does not need).
 */
export const SPOT_SETTINGS = {
  enableRateLimit: true,
  has: { fetchCurrencies: false },
  options: {
    defaultType: 'spot',
    fetchMarkets: { types: ['spot'] },
    fetchMargins: false,
    warnOnFetchOpenOrdersWithoutSymbol: false,
  },
};

/** Makes ccxt's websocket class of an exchange (ccxt.pro) with the given settings; no keys. */
export type StreamFactory = (exchangeId: string, settings: Record<string, unknown>) => Exchange;

const proClasses = (ccxt as unknown as { pro: Record<string, new (settings?: object) => Exchange> }).pro;

export const createStreamExchange: StreamFactory = (exchangeId, settings) => {
  const Class = proClasses[exchangeId];
  if (!Class) throw new Error(`ccxt has no websocket class for ${exchangeId}`);
  return new Class(settings);
};

// ------------------------------------------------------------------ credentials

export const CREDENTIAL_FIELDS: readonly CredentialField[] = ['apiKey', 'secret', 'password', 'uid'];

/** Where each credential is stored, sealed. */
export const CIPHERTEXT_COLUMN = {
  apiKey: 'api_key_ciphertext',
  secret: 'secret_ciphertext',
  password: 'password_ciphertext',
  uid: 'uid_ciphertext',
} as const satisfies Record<CredentialField, keyof ExchangeAccountsTable>;

/** The forms a value takes in a URL: as it is, percent-encoded (upper- and lower-case hex), and form-encoded. */
const spellings = (value: string): string[] => {
  const encoded = encodeURIComponent(value);
  const forms = [value, encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()), encoded.replace(/%20/g, '+')];
  // Longest first, so a form never leaves part of a longer one behind.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
};

/**
 * Replaces every credential value in a text: ccxt's messages may quote a URL
 * that carries the key (HTX does, URL-encoded: a key with `+ / =` reads
 * `%2B %2F %3D` there).
 */
export const redact = (text: string, credentials: Partial<Record<CredentialField, string>>): string => {
  let result = text;
  for (const value of Object.values(credentials)) {
    if (!value || value.length < 4) continue;
    for (const form of spellings(value)) result = result.split(form).join('[redacted]');
  }
  return result.length > 500 ? `${result.slice(0, 500)}…` : result;
};

// ------------------------------------------------------------------ sealing at rest

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

/** Ciphertexts are bound to their owner and field: swapped in the database, they no longer open. */
export const sealContext = (userId: string, field: CredentialField) => `exchange_accounts:${userId}:${field}`;

/** The given credentials sealed for their owner, by column. */
export const sealCredentials = (box: SecretBox, userId: string, credentials: Partial<Record<CredentialField, string>>) => {
  const sealed: Partial<Record<(typeof CIPHERTEXT_COLUMN)[CredentialField], string>> = {};
  for (const field of CREDENTIAL_FIELDS) {
    const value = credentials[field];
    if (value) sealed[CIPHERTEXT_COLUMN[field]] = box.seal(value, sealContext(userId, field));
  }
  return sealed;
};

/** One stored credential opened for its owner; undefined when none is stored. Throws when it does not open. */
export const openCredential = (box: SecretBox, userId: string, field: CredentialField, sealed: string | null | undefined): string | undefined =>
  sealed ? box.open(sealed, sealContext(userId, field)) : undefined;
