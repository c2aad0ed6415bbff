/**
 * The paper exchange's book-keeping: per-account balances and orders against
 * the simulated market, in shapes close to ccxt's unified structures so the
 * engine can drive it like a real exchange. Deterministic: no clock, no
 * randomness of its own; time and prices come from the market.
 *
 * Fill rules (design section 5: "fills use the simulated market price with a
 * fee"):
 * - Market orders fill at once and in full: buys at the ask, sells at the bid.
 * - A limit order that is marketable when placed (buy price >= ask, sell price
 *   <= bid) fills at once at the ask / bid, as on a real exchange.
 * - Any other limit order rests, its funds move from free to used, and it fills
 *   in full at its own price on the first `onTick()` where the market crosses
 *   it (ask <= buy price, bid >= sell price). No partial fills: the simulated
 *   book is deep.
 *
 * Fee convention (Binance's default, no fee token): the fee is charged in the
 * asset the order receives. A buy pays `filled * feeRate` in the base asset
 * (you receive filled - fee); a sell pays `cost * feeRate` in the quote asset
 * (you receive cost - fee). The fee is rounded UP to 8 decimals, like the
 * balances of real exchanges; `cost` itself is exact (tick x step has at most
 * 8 decimals on every listed market). With `feeAsset: 'quote'` (exchanges
 * that charge every fee in the quote) a buy pays `cost * feeRate` in the quote
 * on top of its cost and receives its whole amount; sells are unchanged.
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../../src/api/types';
import { atStep, ceilToStep, floorToStep, isDecimalString, plain } from '../../core/decimal';
import type { PaperMarket, PaperTicker, SimulatedMarket } from './market';

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type OrderStatus = 'open' | 'closed' | 'canceled';

export interface PaperOrder {
  id: string;
  clientOrderId: string;
  timestamp: number;
  datetime: string;
  /** When it filled; null while open or when canceled. */
  lastTradeTimestamp: number | null;
  symbol: string;
  type: OrderType;
  side: OrderSide;
  /** Limit price; for a market order, its fill price. */
  price: DecimalString;
  /** Average fill price; null until filled. */
  average: DecimalString | null;
  amount: DecimalString;
  filled: DecimalString;
  remaining: DecimalString;
  /** Quote value filled: filled * average. */
  cost: DecimalString;
  status: OrderStatus;
  fee: { currency: string; cost: DecimalString; rate: DecimalString };
}

export interface CreateOrderParams {
  accountId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  /** Base amount; rounded down to the market's step. */
  amount?: DecimalString;
  /** Market buys only, instead of `amount`: the quote value to spend at most. */
  cost?: DecimalString;
  /** Limit orders only; rounded to the tick in the trader's favour (buys down, sells up). */
  price?: DecimalString;
  /** Our own id, the idempotency key: the same id on the same account returns the first order. */
  clientOrderId: string;
}

export interface PaperBalance {
  timestamp: number;
  datetime: string;
  free: Record<string, DecimalString>;
  used: Record<string, DecimalString>;
  total: Record<string, DecimalString>;
}

/** ccxt's market structure, trimmed to what the engine's checks need; limits and precision are decimal strings. */
export interface PaperMarketInfo {
  id: string;
  symbol: string;
  base: string;
  quote: string;
  type: 'spot';
  spot: true;
  active: true;
  taker: DecimalString;
  maker: DecimalString;
  precision: { amount: DecimalString; price: DecimalString };
  limits: {
    amount: { min: DecimalString; max: null };
    price: { min: DecimalString; max: null };
    cost: { min: DecimalString; max: null };
  };
}

export type InvalidOrderReason =
  | 'bad_client_order_id'
  | 'bad_side'
  | 'bad_type'
  | 'bad_amount'
  | 'bad_cost'
  | 'bad_price'
  | 'below_min_amount'
  | 'below_min_cost'
  | 'order_not_open';

export type PaperFailure =
  | { kind: 'invalid_order'; reason: InvalidOrderReason }
  | { kind: 'insufficient_funds'; asset: string; required: DecimalString; available: DecimalString }
  | { kind: 'order_not_found'; id: string }
  | { kind: 'bad_symbol'; symbol: string };

/** Thrown for every refused call (as ccxt throws); `failure` says why. A refused call changes nothing. */
export class PaperExchangeError extends Error {
  readonly failure: PaperFailure;
  constructor(failure: PaperFailure) {
    super(`paper exchange: ${failure.kind}${'reason' in failure ? ` (${failure.reason})` : ''}`);
    this.name = 'PaperExchangeError';
    this.failure = failure;
  }
  get kind(): PaperFailure['kind'] {
    return this.failure.kind;
  }
}

const refuse = (failure: PaperFailure): never => {
  throw new PaperExchangeError(failure);
};

/** What the exchange needs of a market: the simulated one, or a scripted one in tests. */
export type PaperPriceFeed = Pick<SimulatedMarket, 'markets' | 'market' | 'now' | 'bestPrices' | 'ticker'>;

export type FeeAsset = 'received' | 'quote';

export interface PaperExchangeOptions {
  market: PaperPriceFeed;
  /** Taker and maker fee, a fraction: '0.001' is 0.1 %. */
  feeRate?: DecimalString;
  /** Where the fee is charged: in the asset the order receives (default), or always in the quote. */
  feeAsset?: FeeAsset;
  /** Starting free balances: accountId -> asset -> amount. */
  balances?: Record<string, Record<string, DecimalString>>;
}

export interface PaperExchange {
  createOrder(params: CreateOrderParams): PaperOrder;
  fetchOrder(accountId: string, id: string): PaperOrder;
  fetchOrderByClientOrderId(accountId: string, clientOrderId: string): PaperOrder;
  /** Open orders of the account, oldest first, optionally of one symbol. */
  fetchOpenOrders(accountId: string, symbol?: string): PaperOrder[];
  /** Every order of the account, oldest first, optionally of one symbol. */
  fetchOrders(accountId: string, symbol?: string): PaperOrder[];
  /** Cancels an open order and frees its funds; canceling a canceled order returns it unchanged. */
  cancelOrder(accountId: string, id: string): PaperOrder;
  fetchBalance(accountId: string): PaperBalance;
  fetchTicker(symbol: string): PaperTicker;
  fetchMarkets(): PaperMarketInfo[];
  /** Adds free funds (funding a demo account). */
  deposit(accountId: string, asset: string, amount: DecimalString): void;
  /**
   * Replaces an account's free balances with stored ones (the account is
   * reloaded after its fill could not be recorded). Refused while it has open orders.
   */
  restoreBalances(accountId: string, free: Record<string, DecimalString>): void;
  /** Fills the resting limit orders the market now crosses, oldest first; call it after each market tick. Returns them. */
  onTick(): PaperOrder[];
}

/** A paper market as ccxt's market structure (trimmed), with the exchange's fee. */
export const paperMarketInfo = (spec: PaperMarket, feeRate: DecimalString): PaperMarketInfo => ({
  id: `${spec.base}${spec.quote}`,
  symbol: spec.symbol,
  base: spec.base,
  quote: spec.quote,
  type: 'spot',
  spot: true,
  active: true,
  taker: feeRate,
  maker: feeRate,
  precision: { amount: spec.amountStep, price: spec.tickSize },
  limits: {
    amount: { min: spec.minAmount, max: null },
    price: { min: spec.tickSize, max: null },
    cost: { min: spec.minCost, max: null },
  },
});

/** Fees are rounded up to the 8 decimals exchanges keep balances in. */
const FEE_DECIMALS = 8;

/** Binance's rule for newClientOrderId, which ccxt passes through. */
const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

interface Wallet {
  free: Big;
  used: Big;
}

/** The internal order: the public shape plus what settlement needs. */
interface OrderRecord {
  accountId: string;
  market: PaperMarket;
  /** Funds held in `used` while open: quote for a buy, base for a sell. */
  reserved: Big;
  order: PaperOrder;
}

const copy = (order: PaperOrder): PaperOrder => ({ ...order, fee: { ...order.fee } });

const smaller = (a: Big, b: Big): Big => (a.lt(b) ? a : b);

const iso = (ms: number): string => new Date(ms).toISOString();

/** A positive decimal string parameter, or a refusal with `reason`. */
const positive = (value: unknown, reason: InvalidOrderReason): Big => {
  if (!isDecimalString(value)) return refuse({ kind: 'invalid_order', reason });
  const number = new Big(value);
  if (number.lte(0)) return refuse({ kind: 'invalid_order', reason });
  return number;
};

export const createPaperExchange = ({ market, feeRate = '0.001', feeAsset = 'received', balances = {} }: PaperExchangeOptions): PaperExchange => {
  if (!isDecimalString(feeRate) || new Big(feeRate).gte(1)) throw new RangeError('feeRate must be a decimal in [0, 1)');
  if (feeAsset !== 'received' && feeAsset !== 'quote') throw new RangeError("feeAsset must be 'received' or 'quote'");
  const rate = new Big(feeRate);
  /** The quote fee a buy of this value pays on top of it; 0 when buys pay in the base they receive. */
  const buyQuoteFee = (value: Big): Big => (feeAsset === 'quote' ? value.times(rate).round(FEE_DECIMALS, Big.roundUp) : new Big(0));

  const wallets = new Map<string, Map<string, Wallet>>();
  const orders = new Map<string, OrderRecord>(); // insertion order = creation order
  const byClientId = new Map<string, string>(); // accountId + clientOrderId -> order id
  const open = new Set<OrderRecord>(); // resting orders, oldest first, so onTick never walks history
  let sequence = 0;

  const walletOf = (accountId: string, asset: string): Wallet => {
    let account = wallets.get(accountId);
    if (!account) {
      account = new Map();
      wallets.set(accountId, account);
    }
    let wallet = account.get(asset);
    if (!wallet) {
      wallet = { free: new Big(0), used: new Big(0) };
      account.set(asset, wallet);
    }
    return wallet;
  };

  const freeOf = (accountId: string, asset: string): Big => wallets.get(accountId)?.get(asset)?.free ?? new Big(0);

  /**
   * The one place balances change. Callers check funds first, so a negative
   * result is a bug: fail loudly rather than book it.
   */
  const adjust = (accountId: string, asset: string, free: Big, used: Big): void => {
    const wallet = walletOf(accountId, asset);
    const nextFree = wallet.free.plus(free);
    const nextUsed = wallet.used.plus(used);
    if (nextFree.lt(0) || nextUsed.lt(0)) throw new Error(`paper exchange invariant: negative ${asset} balance`);
    wallet.free = nextFree;
    wallet.used = nextUsed;
  };

  const deposit = (accountId: string, asset: string, amount: DecimalString): void => {
    if (!isDecimalString(amount)) throw new RangeError(`bad ${asset} amount for ${accountId}`);
    adjust(accountId, asset, new Big(amount), new Big(0));
  };

  for (const [accountId, assets] of Object.entries(balances)) {
    for (const [asset, amount] of Object.entries(assets)) deposit(accountId, asset, amount);
  }

  const marketOf = (symbol: string): PaperMarket => market.market(symbol) ?? refuse({ kind: 'bad_symbol', symbol });

  /**
   * Books a full fill at `price`. `reserved` is what the order held in `used`
   * (zero for an order that fills as it is placed).
   */
  const fill = (record: OrderRecord, price: Big, reserved: Big): void => {
    const { accountId, market: spec, order } = record;
    const amount = new Big(order.amount);
    const cost = amount.times(price);
    if (order.side === 'buy' && feeAsset === 'quote') {
      const fee = buyQuoteFee(cost);
      adjust(accountId, spec.quote, reserved.minus(cost).minus(fee), reserved.neg());
      adjust(accountId, spec.base, amount, new Big(0));
      order.fee = { currency: spec.quote, cost: plain(fee), rate: feeRate };
    } else if (order.side === 'buy') {
      const fee = smaller(amount.times(rate).round(FEE_DECIMALS, Big.roundUp), amount);
      adjust(accountId, spec.quote, reserved.minus(cost), reserved.neg());
      adjust(accountId, spec.base, amount.minus(fee), new Big(0));
      order.fee = { currency: spec.base, cost: plain(fee), rate: feeRate };
    } else {
      const fee = smaller(cost.times(rate).round(FEE_DECIMALS, Big.roundUp), cost);
      adjust(accountId, spec.base, reserved.gt(0) ? new Big(0) : amount.neg(), reserved.neg());
      adjust(accountId, spec.quote, cost.minus(fee), new Big(0));
      order.fee = { currency: spec.quote, cost: plain(fee), rate: feeRate };
    }
    const now = market.now();
    order.status = 'closed';
    order.average = atStep(price, spec.tickSize);
    order.filled = order.amount;
    order.remaining = atStep(new Big(0), spec.amountStep);
    order.cost = plain(cost);
    order.lastTradeTimestamp = now;
    record.reserved = new Big(0);
    open.delete(record);
  };

  const createOrder = (params: CreateOrderParams): PaperOrder => {
    const { accountId, symbol, side, type, clientOrderId } = params;
    if (typeof clientOrderId !== 'string' || !CLIENT_ORDER_ID.test(clientOrderId)) {
      return refuse({ kind: 'invalid_order', reason: 'bad_client_order_id' });
    }
    // Idempotency before anything else: a retry after a lost answer must get
    // the first order back, even if the funds it took would now be missing.
    const clientKey = `${accountId}\u0000${clientOrderId}`;
    const existing = byClientId.get(clientKey);
    if (existing !== undefined) return copy(orders.get(existing)!.order);

    const spec = marketOf(symbol);
    if (side !== 'buy' && side !== 'sell') return refuse({ kind: 'invalid_order', reason: 'bad_side' });
    if (type !== 'market' && type !== 'limit') return refuse({ kind: 'invalid_order', reason: 'bad_type' });
    const { bid, ask } = market.bestPrices(symbol);
    const marketPrice = new Big(side === 'buy' ? ask : bid);

    // The price the order is judged by (min cost, funds) and, for limits, rests at.
    let price: Big;
    if (type === 'limit') {
      const asked = positive(params.price, 'bad_price');
      // Round in the trader's favour: a buy never pays more, a sell never gets less, than asked.
      price = side === 'buy' ? floorToStep(asked, spec.tickSize) : ceilToStep(asked, spec.tickSize);
      if (price.lte(0)) return refuse({ kind: 'invalid_order', reason: 'bad_price' });
    } else {
      if (params.price !== undefined) return refuse({ kind: 'invalid_order', reason: 'bad_price' });
      price = marketPrice;
    }

    let amount: Big;
    if (params.cost !== undefined) {
      // Spend-this-much only makes sense for a market buy (ccxt's createMarketBuyOrderWithCost).
      if (type !== 'market' || side !== 'buy' || params.amount !== undefined) return refuse({ kind: 'invalid_order', reason: 'bad_cost' });
      amount = floorToStep(positive(params.cost, 'bad_cost').div(price), spec.amountStep);
    } else {
      amount = floorToStep(positive(params.amount, 'bad_amount'), spec.amountStep);
    }
    if (amount.lte(0) || amount.lt(spec.minAmount)) return refuse({ kind: 'invalid_order', reason: 'below_min_amount' });
    // Judged on what would really trade after rounding, so an order that passes is one the exchange would fill.
    const notional = amount.times(price);
    if (notional.lt(spec.minCost)) return refuse({ kind: 'invalid_order', reason: 'below_min_cost' });

    // A buy must cover its value at its own price (a market buy's price is the ask),
    // and a fee charged in the quote; a sell must hold its amount. Other fees come
    // out of what the order receives.
    const needAsset = side === 'buy' ? spec.quote : spec.base;
    const need = side === 'buy' ? notional.plus(buyQuoteFee(notional)) : amount;
    const available = freeOf(accountId, needAsset);
    if (available.lt(need)) {
      return refuse({ kind: 'insufficient_funds', asset: needAsset, required: plain(need), available: plain(available) });
    }

    // Accepted: from here on nothing refuses, so state changes are whole.
    sequence += 1;
    const now = market.now();
    const order: PaperOrder = {
      id: String(sequence),
      clientOrderId,
      timestamp: now,
      datetime: iso(now),
      lastTradeTimestamp: null,
      symbol,
      type,
      side,
      price: atStep(price, spec.tickSize),
      average: null,
      amount: atStep(amount, spec.amountStep),
      filled: atStep(new Big(0), spec.amountStep),
      remaining: atStep(amount, spec.amountStep),
      cost: '0',
      status: 'open',
      fee: { currency: side === 'buy' && feeAsset === 'received' ? spec.base : spec.quote, cost: '0', rate: feeRate },
    };
    const record: OrderRecord = { accountId, market: spec, reserved: new Big(0), order };
    orders.set(order.id, record);
    byClientId.set(clientKey, order.id);

    const marketable = type === 'market' || (side === 'buy' ? marketPrice.lte(price) : marketPrice.gte(price));
    if (marketable) {
      fill(record, marketPrice, new Big(0));
    } else {
      adjust(accountId, needAsset, need.neg(), need);
      record.reserved = need;
      open.add(record);
    }
    return copy(order);
  };

  const recordOf = (accountId: string, id: string): OrderRecord => {
    const record = orders.get(id);
    // Another account's order does not exist as far as this account can tell.
    if (!record || record.accountId !== accountId) return refuse({ kind: 'order_not_found', id });
    return record;
  };

  const listOrders = (accountId: string, symbol: string | undefined, openOnly: boolean): PaperOrder[] => {
    const result: PaperOrder[] = [];
    for (const record of orders.values()) {
      if (record.accountId !== accountId) continue;
      if (symbol !== undefined && record.order.symbol !== symbol) continue;
      if (openOnly && record.order.status !== 'open') continue;
      result.push(copy(record.order));
    }
    return result;
  };

  return {
    createOrder,
    fetchOrder: (accountId, id) => copy(recordOf(accountId, id).order),
    fetchOrderByClientOrderId: (accountId, clientOrderId) => {
      const id = byClientId.get(`${accountId}\u0000${clientOrderId}`);
      return id === undefined ? refuse({ kind: 'order_not_found', id: clientOrderId }) : copy(orders.get(id)!.order);
    },
    fetchOpenOrders: (accountId, symbol) => listOrders(accountId, symbol, true),
    fetchOrders: (accountId, symbol) => listOrders(accountId, symbol, false),
    cancelOrder: (accountId, id) => {
      const record = recordOf(accountId, id);
      const { order, market: spec } = record;
      if (order.status === 'canceled') return copy(order);
      if (order.status === 'closed') return refuse({ kind: 'invalid_order', reason: 'order_not_open' });
      const asset = order.side === 'buy' ? spec.quote : spec.base;
      adjust(accountId, asset, record.reserved, record.reserved.neg());
      record.reserved = new Big(0);
      order.status = 'canceled';
      open.delete(record);
      return copy(order);
    },
    fetchBalance: (accountId) => {
      const now = market.now();
      const result: PaperBalance = { timestamp: now, datetime: iso(now), free: {}, used: {}, total: {} };
      const account = wallets.get(accountId);
      const assets = account ? [...account.keys()].sort() : [];
      for (const asset of assets) {
        const wallet = account!.get(asset)!;
        result.free[asset] = plain(wallet.free);
        result.used[asset] = plain(wallet.used);
        result.total[asset] = plain(wallet.free.plus(wallet.used));
      }
      return result;
    },
    fetchTicker: (symbol) => {
      marketOf(symbol);
      return market.ticker(symbol);
    },
    fetchMarkets: () => market.markets.map((spec) => paperMarketInfo(spec, feeRate)),
    deposit,
    restoreBalances: (accountId, free) => {
      if ([...open].some((record) => record.accountId === accountId)) throw new Error(`paper account ${accountId} has open orders`);
      wallets.delete(accountId);
      for (const [asset, amount] of Object.entries(free)) deposit(accountId, asset, amount);
    },
    onTick: () => {
      const filled: PaperOrder[] = [];
      // A copy of the set: fill() removes from it as we go.
      for (const record of [...open]) {
        const { order } = record;
        const { bid, ask } = market.bestPrices(order.symbol);
        const limit = new Big(order.price);
        const crossed = order.side === 'buy' ? new Big(ask).lte(limit) : new Big(bid).gte(limit);
        if (!crossed) continue;
        // A resting order trades at its own price (it was the maker).
        fill(record, limit, record.reserved);
        filled.push(copy(order));
      }
      return filled;
    },
  };
};
