/**
 * The one venue interface: what the engine asks of an exchange, real (through
 * ccxt, see ccxtClient.ts) or paper (paperClient.ts): its markets, a price, the balance, and market orders identified by
 * our own client order id. Money and prices are decimal strings throughout
 * (design section 3); refusals are `ExchangeClientError`s whose `failure` says
 * what the engine should do about them.
 */
import type { DecimalString } from '../../../../src/api/types';
import type { Candle } from '../core/candles';
import type { ExchangeUnavailableReason, KeyRefusalReason } from '../../../../src/api/exchange';
import type { InvalidOrderReason as PaperInvalidOrderReason, PaperFailure } from './paper/exchange';

export interface MarketInfo {
  symbol: string;
  base: string;
  quote: string;
  /** Step sizes: order amounts are multiples of `amount`, prices of `price` ('0.00001', '0.01'). */
  precision: { amount: DecimalString; price: DecimalString };
  /** Smallest order amount (base) and value (quote); '0' where the exchange states none. */
  limits: { amount: { min: DecimalString; max?: DecimalString }; cost: { min: DecimalString } };
  /** Taker fee, a fraction ('0.001'), when the exchange states it. */
  taker?: DecimalString;
}

export interface Ticker {
  symbol: string;
  timestamp: number | null;
  /** Null when the exchange reports none (an empty book side). */
  bid: DecimalString | null;
  ask: DecimalString | null;
  last: DecimalString | null;
  /** Change over the last 24 h in percent, and the quote volume traded; null when the exchange reports none. */
  change24h: DecimalString | null;
  quoteVolume24h: DecimalString | null;
}

export interface Balance {
  free: Record<string, DecimalString>;
  used: Record<string, DecimalString>;
  total: Record<string, DecimalString>;
}

/** ccxt's statuses; an order that expired (a market order the book could not fill in full) counts as canceled. */
export type OrderStatus = 'open' | 'closed' | 'canceled' | 'rejected';

export interface OrderFee {
  currency: string;
  cost: DecimalString;
}

export interface Order {
  id: string;
  clientOrderId: string;
  symbol: string;
  side: 'buy' | 'sell';
  status: OrderStatus;
  /** Average fill price; null while nothing filled. */
  average: DecimalString | null;
  /** Base amount filled. */
  filled: DecimalString;
  /** Quote value filled. */
  cost: DecimalString;
  /**
   * Null when the answer does not report it (Binance's order query carries no
   * fills) or reports it in more than one currency.
   */
  fee: OrderFee | null;
  timestamp: number | null;
}

export interface MarketOrderRequest {
  symbol: string;
  side: 'buy' | 'sell';
  /** Base amount; rounded down to the market's step. */
  amount?: DecimalString;
  /** Market buys only, instead of `amount`: the quote value to spend. */
  cost?: DecimalString;
  /** Our id, recorded with the order intent before the order is sent. */
  clientOrderId: string;
}

export type InvalidOrderReason =
  | PaperInvalidOrderReason
  | 'precision'
  | 'bad_symbol'
  | 'order_not_found'
  | 'duplicate_client_order_id'
  /** Above the exchange's largest order amount (Binance's LOT_SIZE / MARKET_LOT_SIZE maxQty). */
  | 'above_max_amount'
  /** Cancelled by the exchange, not by us, again and again (the runner's, not a client's). */
  | 'canceled_by_exchange'
  /** Refused as invalid for a reason the exchange's message does not make clear. */
  | 'rejected';

export type ExchangeFailure =
  /** The key is refused or may not do this (30102 at the API). */
  | { kind: 'permission'; reason: Extract<KeyRefusalReason, 'invalid_key' | 'permission_denied' | 'account_suspended'> }
  /** The runner pauses replenishing and records the event. The paper exchange says which asset and how much. */
  | { kind: 'insufficient_funds'; asset?: string; required?: DecimalString; available?: DecimalString }
  | { kind: 'invalid_order'; reason: InvalidOrderReason }
  /** Any other refusal by the exchange (a closed market, a restricted location...): asking again will not help. */
  | { kind: 'refused' }
  /** The exchange could not answer now. Only reads fail this way, after their retries; they may be tried again later. */
  | { kind: 'transient'; reason: Exclude<ExchangeUnavailableReason, 'restricted_location'>; retryable: boolean }
  /** An order creation whose answer was lost: the order may exist. Reconcile with fetchOrderByClientOrderId before anything else. */
  | { kind: 'unknown_outcome'; clientOrderId: string };

export class ExchangeClientError extends Error {
  readonly failure: ExchangeFailure;
  constructor(failure: ExchangeFailure, detail?: string) {
    super(`exchange: ${failure.kind}${'reason' in failure ? ` (${failure.reason})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'ExchangeClientError';
    this.failure = failure;
  }
}

export interface ExchangeClient {
  /** Spot markets that can be traded; loaded once, later calls answer from memory. */
  loadMarkets(): Promise<MarketInfo[]>;
  fetchTicker(symbol: string): Promise<Ticker>;
  /** Tickers of many symbols in one request where the exchange allows it (the hot-pairs list). */
  fetchTickers(symbols: string[]): Promise<Ticker[]>;
  /** The last `limit` candles of a pair at a timeframe ('1m', '15m', '1h', '1d'), oldest first. */
  fetchOHLCV(symbol: string, timeframe: string, limit: number): Promise<Candle[]>;
  fetchBalance(): Promise<Balance>;
  /** Never retried: a lost answer is an `unknown_outcome` failure. */
  createMarketOrder(request: MarketOrderRequest): Promise<Order>;
  /** Null when the exchange has no order with this id, i.e. it was never placed. */
  fetchOrderByClientOrderId(symbol: string, clientOrderId: string): Promise<Order | null>;
  /** The fees an order's trades paid, summed per asset (an order answer that reports none). */
  fetchOrderFees(symbol: string, orderId: string): Promise<OrderFee[]>;
  fetchOpenOrders(symbol?: string): Promise<Order[]>;
  /** Cancels what is left of an open order (a real exchange's; the paper exchange fills at once and has none open). */
  cancelOrder?(symbol: string, orderId: string): Promise<void>;
  /**
   * Only a venue that fills at once in memory (the paper exchange): places
   * the order synchronously, so it is written with its fill in the tick's own
   * transaction. Without it, an order's intent is committed before it is sent
   * and its outcome applied after (runner/lanes.ts).
   */
  placeInTick?(request: MarketOrderRequest): Order;
}

/** The paper exchange's refusals as the failures a real exchange's would be (the engine treats both alike). */
export const fromPaperFailure = (failure: PaperFailure): ExchangeFailure => {
  switch (failure.kind) {
    case 'invalid_order':
      return failure;
    case 'insufficient_funds':
      return failure;
    case 'order_not_found':
      return { kind: 'invalid_order', reason: 'order_not_found' };
    case 'bad_symbol':
      return { kind: 'invalid_order', reason: 'bad_symbol' };
  }
};
