/**
 * Exchange accounts: the API keys a user binds (or a paper-trading account),
 * as the /api/exchange/* calls send and answer them. Secrets travel only in
 * the add and edit payloads; no answer ever carries one back.
 */
import type { DecimalString } from './types';

/** The built-in simulated exchange: no keys, virtual balances. */
export const PAPER_EXCHANGE = 'paper';

/**
 * Testnet account types: play money on an exchange's own sandbox (Binance
 * Spot Testnet, OKX demo trading), traded like a live account of that
 * exchange, through ccxt's sandbox mode. Each maps to the live exchange (ccxt
 * id) it is the sandbox of. Shown as "测试网" / "Testnet" / "測試網".
 */
export const TESTNET_EXCHANGES: Readonly<Record<string, string>> = { 'binance-testnet': 'binance', 'okx-testnet': 'okx' };

/** Whether an account type is a testnet (play money: no activation needed). */
export const isTestnetExchange = (exchange: string) => Object.hasOwn(TESTNET_EXCHANGES, exchange);

/** A paper account's prices from the built-in simulator rather than a real exchange's public market. */
export const SIMULATOR = 'simulator';

/**
 * Where a paper account's prices come from, chosen when it is added: the live
 * public market of a real exchange (its pairs, precisions and minimums, read
 * through ccxt without keys; Binance by default), or the simulator. When the
 * exchange cannot be reached the simulator stands in, and says so.
 */
export interface PaperPrices {
  /** 'simulator', or the ccxt id of an offered exchange ('binance', 'okx', ...). */
  source: string;
  /** True while the account trades on that exchange's live prices. */
  live: boolean;
  /** Set while the exchange cannot be reached and the simulator stands in (ISO time since when). */
  fallbackSince: string | null;
}

/** Credentials an exchange may ask for; `password` is the passphrase of OKX, Bitget and others. */
export type CredentialField = 'apiKey' | 'secret' | 'password' | 'uid';

/** One exchange the product offers (GET /api/exchange/catalog). */
export interface ExchangeCatalogEntry {
  /** 'paper', the ccxt id ('binance', 'okx', ...), or a testnet type ('binance-testnet', 'okx-testnet'). */
  id: string;
  name: string;
  /** 'testnet': a real exchange's sandbox with play money (same keys form and trading path as 'real'). */
  kind: 'paper' | 'real' | 'testnet';
  /** The fields the add form asks for, in this order; empty for paper. */
  credentials: CredentialField[];
  /** True when the exchange reports a key's permissions, so a key that can withdraw or cannot trade is refused. */
  checksPermissions: boolean;
  /** Paper only: the virtual balances a new account starts with. */
  startBalances: Record<string, DecimalString> | null;
  /** Paper only: the price sources it can use, the default first ('binance', ..., 'simulator'); null otherwise. */
  priceSources: string[] | null;
}

/** A bound account as the list and detail calls answer it. */
export interface ExchangeAccount {
  id: string;
  exchange: string;
  name: string;
  /** The masked API key ('abcd****wxyz'); null for paper accounts. */
  apiKeyHint: string | null;
  /** Paper accounts: starting virtual balances; null for real exchanges. */
  paperBalances: Record<string, DecimalString> | null;
  /** Paper accounts: where their prices come from now; null for real exchanges. */
  prices: PaperPrices | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * An account's free quote balance now (GET /api/exchange/balance/{id}): what
 * a new task's cycles can use. A paper account's comes from its journal (what
 * its tasks hold is not free); a real account's from the exchange. `free` is
 * null when the exchange cannot be asked now: the balance is unknown.
 */
export interface ExchangeBalance {
  id: string;
  /** The quote asset the pairs trade against ('USDT'). */
  asset: string;
  free: DecimalString | null;
}

export interface AddExchangeAccountPayload {
  exchange: string;
  name: string;
  /** Paper accounts only: one of the catalog entry's `priceSources` (default: its first). */
  priceSource?: string;
  apiKey?: string;
  secret?: string;
  password?: string;
  uid?: string;
}

/** Omitted or empty credential fields keep the stored value; new ones are verified with the exchange first. */
export interface EditExchangeAccountPayload {
  id: string;
  name?: string;
  apiKey?: string;
  secret?: string;
  password?: string;
  uid?: string;
}

/**
 * `data.reason` of a refused key: 30102 (EXCHANGE_PERMISSION_DENIED) when the
 * exchange refuses the key or the key has the wrong permissions; 20002
 * (NOT_ENABLED) when the exchange could not be asked.
 */
export type KeyRefusalReason =
  | 'invalid_key'
  | 'permission_denied'
  | 'account_suspended'
  | 'cannot_trade'
  | 'can_withdraw'
  | 'exchange_refused';
export type ExchangeUnavailableReason = 'exchange_unreachable' | 'exchange_busy' | 'clock_skew' | 'restricted_location' | 'bad_response';
