import Big from 'big.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import recorded from '../fixtures/binance-orders.json';
import keyCheck from '../fixtures/binance.json';

/**
 * A local Binance spot exchange: the REST endpoints ccxt's `binance` class
 * calls for the engine (exchange info, time, tickers, klines, account, order
 * create / query / cancel, open orders, trades, and the key check's API
 * restrictions), answered in the shapes of the
 * recorded real answers (fixtures/binance-orders.json), with state behind
 * them: balances, orders and trades, matched against a price path (a seeded
 * walk, or the closes of recorded minutes).
 *
 * Like Binance it checks the API key, the HMAC signature and the timestamp
 * against recvWindow (-2014, -2015, -1022, -1021), applies the symbols' real filters
 * (PRICE_FILTER, LOT_SIZE, NOTIONAL: -1013; -1111 for too many decimals),
 * refuses what the balance does not cover (-2010), charges the commission in
 * the received asset or in BNB, counts request weight per minute
 * (X-MBX-USED-WEIGHT-1M) and answers 429, then 418 to a client that does not
 * wait out Retry-After. Faults are queued per endpoint (`fault`) or drawn from
 * a seed (`randomFaults`).
 */

// ------------------------------------------------------------------ markets

const DECIMALS = 8;
const fixed = (value: Big.BigSource) => new Big(value).toFixed(DECIMALS);

interface Filters {
  tickSize: Big;
  minPrice: Big;
  maxPrice: Big;
  stepSize: Big;
  minQty: Big;
  maxQty: Big;
  minNotional: Big;
}

type SymbolInfo = Omit<(typeof recorded.exchangeInfo.body.symbols)[number], 'filters'> & { filters: Record<string, unknown>[] };

const BTC: SymbolInfo = recorded.exchangeInfo.body.symbols.find((symbol) => symbol.symbol === 'BTCUSDT')!;
const DOGE: SymbolInfo = recorded.exchangeInfo.body.symbols.find((symbol) => symbol.symbol === 'DOGEUSDT')!;
/** BNB/USDT as Binance lists it: 0.01 price tick, 0.001 lot step, 5 USDT minimum. */
const BNB: SymbolInfo = {
  ...BTC,
  symbol: 'BNBUSDT',
  baseAsset: 'BNB',
  filters: BTC.filters.map((filter) =>
    filter.filterType === 'LOT_SIZE' ? { ...filter, minQty: '0.00100000', maxQty: '900000.00000000', stepSize: '0.00100000' } : filter,
  ),
};

const filtersOf = (info: SymbolInfo): Filters => {
  const find = (type: string) => info.filters.find((filter) => filter.filterType === type) as Record<string, string>;
  const price = find('PRICE_FILTER');
  const lot = find('LOT_SIZE');
  const notional = find('NOTIONAL');
  return {
    tickSize: new Big(price.tickSize!),
    minPrice: new Big(price.minPrice!),
    maxPrice: new Big(price.maxPrice!),
    stepSize: new Big(lot.stepSize!),
    minQty: new Big(lot.minQty!),
    maxQty: new Big(lot.maxQty!),
    minNotional: new Big(notional.minNotional!),
  };
};

const onStep = (value: Big, step: Big) => value.mod(step).eq(0);
const floorTo = (value: Big, step: Big) => value.div(step).round(0, Big.roundDown).times(step);

// ------------------------------------------------------------------ state

export interface LocalAccount {
  apiKey: string;
  secret: string;
  balances: Record<string, { free: Big; locked: Big }>;
  /** Pay the commission in BNB (Binance's "use BNB to pay fees", 25 % off) while the account holds enough. */
  payFeesInBnb: boolean;
}

export interface LocalOrder {
  account: LocalAccount;
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: 'BUY' | 'SELL';
  type: 'MARKET' | 'LIMIT';
  price: Big;
  origQty: Big;
  origQuoteOrderQty: Big;
  executedQty: Big;
  cummulativeQuoteQty: Big;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
  time: number;
  updateTime: number;
  /** Stays partially filled for good (a fault). */
  stuck: boolean;
}

export interface LocalTrade {
  symbol: string;
  id: number;
  orderId: number;
  price: Big;
  qty: Big;
  quoteQty: Big;
  commission: Big;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
}

/** What a request meets instead of (or after) its normal answer. */
export type Fault =
  /** The order is placed, then the connection is dropped without an answer. */
  | { kind: 'drop_answer' }
  /** The answer (after the request is carried out) comes this late: past the client's timeout, a timeout. */
  | { kind: 'delay_answer'; ms: number }
  /** A server error without carrying the request out (a read's 5xx). */
  | { kind: 'server_error'; status: 500 | 502 | 503 | 504 }
  /** Over the weight limit: 429 with Retry-After; a request before then is banned (418). */
  | { kind: 'rate_limit'; retryAfterSeconds: number }
  /** An IP ban: 418 with Retry-After, and every request until then. */
  | { kind: 'ban'; seconds: number }
  /** Maintenance: 503 with -1016, for every request until `maintenance(false)`. */
  | { kind: 'maintenance' }
  /** The order fills this share of its quantity and stays open for good. */
  | { kind: 'partial_fill'; share: string }
  /** The exchange cancels the order right after accepting it, unfilled (self-trade prevention, a delisting). */
  | { kind: 'cancel_by_exchange' };

export type Endpoint = 'POST /order' | 'GET /order' | 'DELETE /order' | 'GET /account' | 'GET /ticker/24hr' | 'GET /exchangeInfo' | 'GET /myTrades' | 'GET /openOrders' | 'GET /klines' | 'GET /time';

/**
 * How long after a 429 a request still counts as sent before its client read
 * the 429 (its other requests in flight): it gets a 429 too, not the ban that
 * meets a client that does not back off.
 */
const IN_FLIGHT_MS = 250;

/** Request weights as Binance documents them (REQUEST_WEIGHT, per IP and minute). */
const weightOf = (endpoint: string, query: URLSearchParams): number => {
  switch (endpoint) {
    case 'GET /exchangeInfo':
      return 20;
    case 'GET /ticker/24hr': {
      if (query.has('symbol')) return 2;
      if (!query.has('symbols')) return 80;
      const count = (JSON.parse(query.get('symbols')!) as string[]).length;
      return count <= 20 ? 2 : count <= 100 ? 40 : 80;
    }
    case 'GET /account':
      return 20;
    case 'GET /order':
      return 4;
    case 'GET /openOrders':
      return query.has('symbol') ? 6 : 80;
    case 'GET /myTrades':
      return query.has('orderId') ? 5 : 20;
    case 'GET /klines':
      return 2;
    default:
      return 1;
  }
};

/** A small seeded generator (mulberry32), for the price walk and random faults. */
export const seeded = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export interface LocalBinanceOptions {
  /** Start prices (on the symbol's tick); BTCUSDT, DOGEUSDT and BNBUSDT are listed. */
  prices?: Partial<Record<'BTCUSDT' | 'DOGEUSDT' | 'BNBUSDT', string>>;
  /** The base quantity at each price level: a larger market order walks up (or down) the book, a fill per level. */
  levelQty?: Partial<Record<string, string>>;
  /** REQUEST_WEIGHT a minute. */
  weightLimit?: number;
  /** The taker commission rate. */
  commission?: string;
  /** Closes a symbol's price follows, one a `walk()` (the bundled minute history), instead of the seeded walk. */
  history?: Partial<Record<string, string[]>>;
  seed?: number;
  /** A symbol's largest order amount (LOT_SIZE maxQty), instead of the recorded one. */
  maxQty?: Partial<Record<string, string>>;
}

export interface RandomFaults {
  /** Chance of a fault per request, 0..1. */
  rate: number;
  kinds: Fault[];
}

export const startLocalBinance = async (options: LocalBinanceOptions = {}) => {
  const listed = [BTC, DOGE, BNB].map((info) => {
    const maxQty = options.maxQty?.[info.symbol];
    return maxQty ? { ...info, filters: info.filters.map((filter) => (filter.filterType === 'LOT_SIZE' ? { ...filter, maxQty: fixed(maxQty) } : filter)) } : info;
  });
  const filters = new Map(listed.map((info) => [info.symbol, filtersOf(info)]));
  const prices = new Map<string, Big>(
    Object.entries({ BTCUSDT: '67112.01', DOGEUSDT: '0.16020', BNBUSDT: '600.00', ...options.prices }).map(([symbol, price]) => [symbol, new Big(price)]),
  );
  const history = new Map(Object.entries(options.history ?? {}).map(([symbol, closes]) => [symbol, { closes: closes!, next: 1 }]));
  for (const [symbol, { closes }] of history) prices.set(symbol, new Big(closes[0]!));
  const random = seeded(options.seed ?? 1);
  const commission = new Big(options.commission ?? '0.001');
  const weightLimit = options.weightLimit ?? 6000;
  const accounts = new Map<string, LocalAccount>();
  const orders: LocalOrder[] = [];
  const trades: LocalTrade[] = [];
  const faults = new Map<string, Fault[]>();
  let randomFaults: RandomFaults | undefined;
  let nextOrderId = 28457381;
  let nextTradeId = 3465210;
  /** The exchange's clock minus ours. */
  let skewMs = 0;
  let weight = { minute: 0, used: 0 };
  /** After a 429: a request before this time is banned. */
  let rateLimitedUntil = 0;
  let rateLimitedAt = 0;
  let bannedUntil = 0;
  let inMaintenance = false;
  /** Every request, in order: what tests count. */
  const requests: { endpoint: string; at: number; status: number; apiKey: string | undefined; query: URLSearchParams; fault?: Fault['kind']; code?: number; banAfterRateLimitMs?: number }[] = [];
  /** How many requests met each kind of fault. */
  const faultsMet = new Map<string, number>();
  /** Each past minute's weight (the refused requests' included). */
  const minutes: { minute: number; used: number }[] = [];
  /** The most weight used in any minute. */
  let peakWeight = 0;

  const now = () => Date.now() + skewMs;
  const baseOf = (symbol: string) => listed.find((info) => info.symbol === symbol)!.baseAsset;
  const quoteOf = (symbol: string) => listed.find((info) => info.symbol === symbol)!.quoteAsset;
  const balanceOf = (account: LocalAccount, asset: string) => (account.balances[asset] ??= { free: new Big(0), locked: new Big(0) });

  // -------------------------------------------------------------- matching

  /** Binance's commission on a fill: in the received asset, or in BNB at 25 % off while the account holds enough. */
  const charge = (account: LocalAccount, symbol: string, side: 'BUY' | 'SELL', qty: Big, quoteQty: Big) => {
    if (account.payFeesInBnb) {
      const bnbPrice = prices.get('BNBUSDT')!;
      const inBnb = quoteQty.times(commission).times('0.75').div(bnbPrice).round(DECIMALS, Big.roundUp);
      const bnb = balanceOf(account, 'BNB');
      if (bnb.free.gte(inBnb)) {
        bnb.free = bnb.free.minus(inBnb);
        return { commission: inBnb, commissionAsset: 'BNB', received: side === 'BUY' ? qty : quoteQty };
      }
    }
    const received = side === 'BUY' ? qty : quoteQty;
    const fee = received.times(commission).round(DECIMALS, Big.roundUp);
    return { commission: fee, commissionAsset: side === 'BUY' ? baseOf(symbol) : quoteOf(symbol), received: received.minus(fee) };
  };

  /** One fill of an order at a price: balances move, a trade is written. */
  const fill = (order: LocalOrder, price: Big, qty: Big, maker: boolean) => {
    const { account, symbol, side } = order;
    const quoteQty = price.times(qty);
    const base = balanceOf(account, baseOf(symbol));
    const quote = balanceOf(account, quoteOf(symbol));
    const fee = charge(account, symbol, side, qty, quoteQty);
    if (side === 'BUY') {
      // A limit buy pays from its lock at its own price, and gets back what a better price saved.
      if (order.type === 'LIMIT') {
        quote.locked = quote.locked.minus(order.price.times(qty));
        quote.free = quote.free.plus(order.price.times(qty)).minus(quoteQty);
      } else quote.free = quote.free.minus(quoteQty);
      base.free = base.free.plus(fee.received);
    } else {
      if (order.type === 'LIMIT') base.locked = base.locked.minus(qty);
      else base.free = base.free.minus(qty);
      quote.free = quote.free.plus(fee.received);
    }
    order.executedQty = order.executedQty.plus(qty);
    order.cummulativeQuoteQty = order.cummulativeQuoteQty.plus(quoteQty);
    order.updateTime = now();
    const trade: LocalTrade = {
      symbol,
      id: nextTradeId++,
      orderId: order.orderId,
      price,
      qty,
      quoteQty,
      commission: fee.commission,
      commissionAsset: fee.commissionAsset,
      time: order.updateTime,
      isBuyer: side === 'BUY',
      isMaker: maker,
    };
    trades.push(trade);
    return trade;
  };

  /** Frees what a finished limit order still holds locked. */
  const release = (order: LocalOrder) => {
    if (order.type !== 'LIMIT') return;
    const left = order.origQty.minus(order.executedQty);
    if (order.side === 'BUY') {
      const quote = balanceOf(order.account, quoteOf(order.symbol));
      const held = order.price.times(left);
      quote.locked = quote.locked.minus(held);
      quote.free = quote.free.plus(held);
    } else {
      const base = balanceOf(order.account, baseOf(order.symbol));
      base.locked = base.locked.minus(left);
      base.free = base.free.plus(left);
    }
  };

  /** A market order walks the book from the price path: a fill per level of `levelQty`, one tick apart. */
  const takeLevels = (order: LocalOrder, qtyWanted: Big | null, quoteWanted: Big | null, share: Big) => {
    const f = filters.get(order.symbol)!;
    const level = new Big(options.levelQty?.[order.symbol] ?? '1000000000');
    let price = prices.get(order.symbol)!;
    let qtyLeft = qtyWanted ? floorTo(qtyWanted.times(share), f.stepSize) : null;
    let quoteLeft = quoteWanted ? quoteWanted.times(share) : null;
    const fills: LocalTrade[] = [];
    for (let levels = 0; levels < 100; levels += 1) {
      let qty = qtyLeft ?? floorTo(quoteLeft!.div(price), f.stepSize);
      if (qty.gt(level)) qty = level;
      if (qty.lte(0)) break;
      fills.push(fill(order, price, qty, false));
      if (qtyLeft) qtyLeft = qtyLeft.minus(qty);
      if (quoteLeft) quoteLeft = quoteLeft.minus(price.times(qty));
      price = order.side === 'BUY' ? price.plus(f.tickSize) : price.minus(f.tickSize);
    }
    return fills;
  };

  /** Resting limit orders that the current price reaches fill at their own price (as makers). */
  const matchResting = () => {
    for (const order of orders) {
      if (order.type !== 'LIMIT' || order.stuck || (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED')) continue;
      const price = prices.get(order.symbol)!;
      const reached = order.side === 'BUY' ? price.lte(order.price) : price.gte(order.price);
      if (!reached) continue;
      fill(order, order.price, order.origQty.minus(order.executedQty), true);
      order.status = 'FILLED';
      release(order);
    }
  };

  // -------------------------------------------------------------- answers

  class Refusal extends Error {
    constructor(
      readonly status: number,
      readonly code: number,
      message: string,
    ) {
      super(message);
    }
  }

  const orderAnswer = (order: LocalOrder) => ({
    symbol: order.symbol,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
    price: fixed(order.price),
    origQty: fixed(order.origQty),
    executedQty: fixed(order.executedQty),
    cummulativeQuoteQty: fixed(order.cummulativeQuoteQty),
    status: order.status,
    timeInForce: 'GTC',
    type: order.type,
    side: order.side,
    stopPrice: '0.00000000',
    icebergQty: '0.00000000',
    time: order.time,
    updateTime: order.updateTime,
    isWorking: true,
    workingTime: order.time,
    origQuoteOrderQty: fixed(order.origQuoteOrderQty),
    selfTradePreventionMode: 'EXPIRE_MAKER',
  });

  const tradeAnswer = (trade: LocalTrade) => ({
    symbol: trade.symbol,
    id: trade.id,
    orderId: trade.orderId,
    orderListId: -1,
    price: fixed(trade.price),
    qty: fixed(trade.qty),
    quoteQty: fixed(trade.quoteQty),
    commission: fixed(trade.commission),
    commissionAsset: trade.commissionAsset,
    time: trade.time,
    isBuyer: trade.isBuyer,
    isMaker: trade.isMaker,
    isBestMatch: true,
  });

  const tickerAnswer = (symbol: string) => {
    const price = prices.get(symbol)!;
    const tick = filters.get(symbol)!.tickSize;
    const open = new Big(price).times('1.00614');
    return {
      ...recorded.ticker.body,
      symbol,
      lastPrice: fixed(price),
      bidPrice: fixed(price.minus(tick)),
      askPrice: fixed(price),
      openPrice: fixed(open.round(8)),
      prevClosePrice: fixed(open.round(8)),
      priceChange: fixed(price.minus(open).round(8)),
      priceChangePercent: price.minus(open).div(open).times(100).round(3).toFixed(3),
      closeTime: now(),
      openTime: now() - 86_400_000,
    };
  };

  const symbolOf = (params: URLSearchParams) => {
    const symbol = params.get('symbol');
    if (!symbol) throw new Refusal(400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
    if (!filters.has(symbol)) throw new Refusal(400, -1121, 'Invalid symbol.');
    return symbol;
  };

  const decimalParam = (params: URLSearchParams, name: string): Big | null => {
    const value = params.get(name);
    if (value === null) return null;
    if (!/^\d+(\.\d+)?$/.test(value)) throw new Refusal(400, -1100, `Illegal characters found in parameter '${name}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`);
    if ((value.split('.')[1] ?? '').replace(/0+$/, '').length > DECIMALS) throw new Refusal(400, -1111, `Parameter '${name}' has too much precision.`);
    return new Big(value);
  };

  const filterFailure = (name: string) => new Refusal(400, -1013, `Filter failure: ${name}`);
  const insufficient = () => new Refusal(400, -2010, 'Account has insufficient balance for requested action.');

  const createOrder = (account: LocalAccount, params: URLSearchParams, fault: Fault | undefined) => {
    const symbol = symbolOf(params);
    const f = filters.get(symbol)!;
    const side = params.get('side');
    const type = params.get('type');
    if (side !== 'BUY' && side !== 'SELL') throw new Refusal(400, -1102, "Mandatory parameter 'side' was not sent, was empty/null, or malformed.");
    if (type !== 'MARKET' && type !== 'LIMIT') throw new Refusal(400, -1116, 'Invalid orderType.');
    const clientOrderId = params.get('newClientOrderId') ?? `local${nextOrderId}`;
    if (!/^[.A-Za-z0-9:/_-]{1,36}$/.test(clientOrderId)) throw new Refusal(400, -1100, "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'.");
    if (orders.some((order) => order.clientOrderId === clientOrderId && order.account === account && (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'))) {
      throw new Refusal(400, -2010, 'Duplicate order sent.');
    }
    const quantity = decimalParam(params, 'quantity');
    const quoteOrderQty = decimalParam(params, 'quoteOrderQty');
    const limitPrice = decimalParam(params, 'price');
    const market = prices.get(symbol)!;
    const base = balanceOf(account, baseOf(symbol));
    const quote = balanceOf(account, quoteOf(symbol));
    const checkQty = (qty: Big) => {
      if (qty.lt(f.minQty) || qty.gt(f.maxQty) || !onStep(qty.minus(f.minQty), f.stepSize)) throw filterFailure('LOT_SIZE');
    };
    if (type === 'LIMIT') {
      if (!quantity || !limitPrice) throw new Refusal(400, -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed.");
      if (limitPrice.lt(f.minPrice) || limitPrice.gt(f.maxPrice) || !onStep(limitPrice, f.tickSize)) throw filterFailure('PRICE_FILTER');
      checkQty(quantity);
      if (limitPrice.times(quantity).lt(f.minNotional)) throw filterFailure('NOTIONAL');
    } else if (quoteOrderQty) {
      if (quantity) throw new Refusal(400, -1106, "Parameter 'quantity' sent when not required.");
      if (quoteOrderQty.lt(f.minNotional)) throw filterFailure('NOTIONAL');
      // The quantity a spend-this-much order comes to is held to the lot's limits too (MARKET_LOT_SIZE).
      if (floorTo(quoteOrderQty.div(market), f.stepSize).gt(f.maxQty)) throw filterFailure('MARKET_LOT_SIZE');
    } else {
      if (!quantity) throw new Refusal(400, -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.");
      checkQty(quantity);
      if (market.times(quantity).lt(f.minNotional)) throw filterFailure('NOTIONAL');
    }
    // What the order needs: a buy its quote (at the limit price, or what the levels cost), a sell its base.
    if (side === 'SELL' && base.free.lt(quantity!)) throw insufficient();
    if (side === 'BUY' && type === 'LIMIT' && quote.free.lt(limitPrice!.times(quantity!))) throw insufficient();
    if (side === 'BUY' && type === 'MARKET' && quote.free.lt(quoteOrderQty ?? market.times(quantity!).times('1.01'))) throw insufficient();

    const time = now();
    const order: LocalOrder = {
      account,
      symbol,
      orderId: nextOrderId++,
      clientOrderId,
      side,
      type,
      price: limitPrice ?? new Big(0),
      origQty: quantity ?? new Big(0),
      origQuoteOrderQty: quoteOrderQty ?? new Big(0),
      executedQty: new Big(0),
      cummulativeQuoteQty: new Big(0),
      status: 'NEW',
      time,
      updateTime: time,
      stuck: fault?.kind === 'partial_fill',
    };
    orders.push(order);
    const share = fault?.kind === 'partial_fill' ? new Big(fault.share) : new Big(1);
    let fills: LocalTrade[] = [];
    if (fault?.kind === 'cancel_by_exchange') {
      order.status = 'EXPIRED';
    } else if (type === 'MARKET') {
      fills = takeLevels(order, quantity, quoteOrderQty, share);
      if (quoteOrderQty) order.origQty = order.executedQty;
      order.status = order.stuck ? 'PARTIALLY_FILLED' : 'FILLED';
    } else {
      if (side === 'BUY') {
        quote.free = quote.free.minus(limitPrice!.times(quantity!));
        quote.locked = quote.locked.plus(limitPrice!.times(quantity!));
      } else {
        base.free = base.free.minus(quantity!);
        base.locked = base.locked.plus(quantity!);
      }
      const marketable = side === 'BUY' ? market.lte(limitPrice!) : market.gte(limitPrice!);
      if (marketable || order.stuck) {
        const qty = floorTo(quantity!.times(share), f.stepSize);
        if (qty.gt(0)) fills = [fill(order, marketable ? market : limitPrice!, qty, false)];
        order.status = order.stuck ? 'PARTIALLY_FILLED' : 'FILLED';
        if (!order.stuck) release(order);
      }
    }
    return {
      ...orderAnswer(order),
      transactTime: time,
      fills: fills.map((trade) => ({
        price: fixed(trade.price),
        qty: fixed(trade.qty),
        commission: fixed(trade.commission),
        commissionAsset: trade.commissionAsset,
        tradeId: trade.id,
      })),
    };
  };

  const findOrder = (account: LocalAccount, params: URLSearchParams) => {
    const symbol = symbolOf(params);
    const byClient = params.get('origClientOrderId');
    const byId = params.get('orderId');
    const order = orders.find(
      (candidate) => candidate.account === account && candidate.symbol === symbol && (byClient ? candidate.clientOrderId === byClient : String(candidate.orderId) === byId),
    );
    if (!order) throw new Refusal(400, -2013, 'Order does not exist.');
    return order;
  };

  const accountAnswer = (account: LocalAccount) => ({
    ...recorded.account.body,
    updateTime: now(),
    balances: Object.entries(account.balances).map(([asset, { free, locked }]) => ({ asset, free: fixed(free), locked: fixed(locked) })),
  });

  const klines = (params: URLSearchParams) => {
    const symbol = symbolOf(params);
    const limit = Math.min(Number(params.get('limit') ?? 500), 1000);
    const price = prices.get(symbol)!;
    const minute = Math.floor(now() / 60_000) * 60_000;
    return Array.from({ length: limit }, (_, index) => {
      const open = minute - (limit - 1 - index) * 60_000;
      return [open, fixed(price), fixed(price), fixed(price), fixed(price), '1.00000000', open + 59_999, fixed(price), 10, '0.50000000', fixed(price.div(2)), '0'];
    });
  };

  /** The signed request's account: key, signature, then timestamp against recvWindow. */
  const authenticate = (request: IncomingMessage, rawQuery: string, rawBody: string) => {
    const apiKey = request.headers['x-mbx-apikey'];
    if (typeof apiKey !== 'string' || !/^[A-Za-z0-9]{64}$/.test(apiKey)) throw new Refusal(401, -2014, 'API-key format invalid.');
    const account = typeof apiKey === 'string' ? accounts.get(apiKey) : undefined;
    if (!account) throw new Refusal(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const signed = `${rawQuery}${rawBody}`;
    const match = /(?:^|&)signature=([0-9a-f]{64})$/.exec(signed);
    const expected = createHmac('sha256', account.secret).update(match ? signed.slice(0, match.index) : signed).digest();
    if (!match || !timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected)) throw new Refusal(400, -1022, 'Signature for this request is not valid.');
    const params = new URLSearchParams(signed);
    const timestamp = Number(params.get('timestamp'));
    const recvWindow = Number(params.get('recvWindow') ?? 5000);
    const serverTime = now();
    if (!Number.isFinite(timestamp) || timestamp > serverTime + 1000 || serverTime - timestamp > recvWindow) {
      throw new Refusal(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
    return { account, params };
  };

  const PRIVATE = new Set(['GET /sapi/v1/account/apiRestrictions', 'GET /account', 'POST /order', 'GET /order', 'DELETE /order', 'GET /openOrders', 'GET /myTrades']);

  const route = (endpoint: string, request: IncomingMessage, query: URLSearchParams, rawQuery: string, rawBody: string, fault: Fault | undefined): unknown => {
    if (!PRIVATE.has(endpoint)) {
      switch (endpoint) {
        case 'GET /ping':
          return {};
        case 'GET /time':
          return { serverTime: now() };
        case 'GET /exchangeInfo':
          return { ...recorded.exchangeInfo.body, serverTime: now(), symbols: listed };
        case 'GET /ticker/24hr': {
          if (query.has('symbol')) return tickerAnswer(symbolOf(query));
          const wanted = query.has('symbols') ? (JSON.parse(query.get('symbols')!) as string[]) : [...prices.keys()];
          if (wanted.some((symbol) => !filters.has(symbol))) throw new Refusal(400, -1121, 'Invalid symbol.');
          return wanted.map(tickerAnswer);
        }
        case 'GET /ticker/price':
          return query.has('symbol')
            ? { symbol: symbolOf(query), price: fixed(prices.get(symbolOf(query))!) }
            : [...prices].map(([symbol, price]) => ({ symbol, price: fixed(price) }));
        case 'GET /klines':
          return klines(query);
        default:
          throw new Refusal(404, -1000, 'Unknown endpoint.');
      }
    }
    const { account, params } = authenticate(request, rawQuery, rawBody);
    switch (endpoint) {
      case 'GET /account':
        return accountAnswer(account);
      case 'GET /sapi/v1/account/apiRestrictions':
        // The key check at binding: a key that may trade spot, and not withdraw.
        return { ...keyCheck.apiRestrictionsTradeOnly.body, createTime: now() - 86_400_000 };
      case 'POST /order':
        return createOrder(account, params, fault);
      case 'GET /order':
        return orderAnswer(findOrder(account, params));
      case 'DELETE /order': {
        const order = findOrder(account, params);
        if (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED') throw new Refusal(400, -2011, 'Unknown order sent.');
        order.status = 'CANCELED';
        order.updateTime = now();
        release(order);
        return orderAnswer(order);
      }
      case 'GET /openOrders': {
        const symbol = params.has('symbol') ? symbolOf(params) : undefined;
        return orders
          .filter((order) => order.account === account && (!symbol || order.symbol === symbol) && (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'))
          .map(orderAnswer);
      }
      case 'GET /myTrades': {
        const symbol = symbolOf(params);
        const orderId = params.get('orderId');
        const mine = new Set(orders.filter((order) => order.account === account).map((order) => order.orderId));
        return trades.filter((trade) => trade.symbol === symbol && mine.has(trade.orderId) && (!orderId || String(trade.orderId) === orderId)).map(tradeAnswer);
      }
    }
    throw new Refusal(404, -1000, 'Unknown endpoint.');
  };

  const takeFault = (endpoint: string): Fault | undefined => {
    const queued = faults.get(endpoint)?.shift();
    if (queued) return queued;
    if (randomFaults && randomFaults.kinds.length > 0 && random() < randomFaults.rate) {
      const kind = randomFaults.kinds[Math.floor(random() * randomFaults.kinds.length)]!;
      // Order-only faults on an order; read faults on a read.
      const onOrder = endpoint === 'POST /order';
      const fits = onOrder ? kind.kind !== 'server_error' : kind.kind !== 'drop_answer' && kind.kind !== 'partial_fill' && kind.kind !== 'cancel_by_exchange';
      return fits ? kind : undefined;
    }
    return undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://local');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const rawQuery = url.search.slice(1);
    const endpoint = `${request.method} ${url.pathname.replace(/^\/api\/v3/, '')}`;
    const query = new URLSearchParams(rawQuery);
    const seen: (typeof requests)[number] = { endpoint, at: Date.now(), status: 0, apiKey: request.headers['x-mbx-apikey'] as string | undefined, query: new URLSearchParams(`${rawQuery}&${rawBody}`) };
    requests.push(seen);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      seen.status = status;
      response.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', 'X-MBX-USED-WEIGHT-1M': String(weight.used), ...headers });
      response.end(JSON.stringify(body));
    };
    const clock = Date.now();
    if (clock < bannedUntil) {
      send(418, { code: -1003, msg: `Way too much request weight used; IP banned until ${bannedUntil}. Please use WebSocket Streams for live updates to avoid bans.` }, { 'Retry-After': String(Math.ceil((bannedUntil - clock) / 1000)) });
      return;
    }
    if (clock < rateLimitedUntil && clock - rateLimitedAt < IN_FLIGHT_MS) {
      // Sent before the client could have read the 429 (its other requests in flight): over the limit too, not yet a ban.
      send(429, { code: -1003, msg: `Too much request weight used; current limit is ${weightLimit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.` }, { 'Retry-After': String(Math.ceil((rateLimitedUntil - clock) / 1000)) });
      return;
    }
    if (clock < rateLimitedUntil) {
      // Asked again before Retry-After: the IP is banned (Binance: from 2 minutes up).
      bannedUntil = clock + 120_000;
      seen.banAfterRateLimitMs = clock - rateLimitedAt;
      send(418, { code: -1003, msg: `Way too much request weight used; IP banned until ${bannedUntil}. Please use WebSocket Streams for live updates to avoid bans.` }, { 'Retry-After': '120' });
      return;
    }
    const fault = takeFault(endpoint);
    if (fault) {
      seen.fault = fault.kind;
      faultsMet.set(fault.kind, (faultsMet.get(fault.kind) ?? 0) + 1);
    }
    if (inMaintenance || fault?.kind === 'maintenance') {
      send(503, { code: -1016, msg: 'This service is no longer available.' });
      return;
    }
    const minute = Math.floor(clock / 60_000);
    if (weight.minute !== minute) {
      if (weight.used > 0) minutes.push({ ...weight });
      weight = { minute, used: 0 };
    }
    weight.used += weightOf(endpoint, query);
    peakWeight = Math.max(peakWeight, weight.used);
    const overLimit = weight.used > weightLimit;
    if (overLimit || fault?.kind === 'rate_limit') {
      const seconds = fault?.kind === 'rate_limit' ? fault.retryAfterSeconds : Math.ceil(((minute + 1) * 60_000 - clock) / 1000);
      rateLimitedUntil = clock + seconds * 1000;
      rateLimitedAt = clock;
      send(429, { code: -1003, msg: `Too much request weight used; current limit is ${weightLimit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.` }, { 'Retry-After': String(seconds) });
      return;
    }
    if (fault?.kind === 'ban') {
      bannedUntil = clock + fault.seconds * 1000;
      send(418, { code: -1003, msg: `Way too much request weight used; IP banned until ${bannedUntil}. Please use WebSocket Streams for live updates to avoid bans.` }, { 'Retry-After': String(fault.seconds) });
      return;
    }
    if (fault?.kind === 'server_error') {
      send(fault.status, fault.status === 503 ? { code: -1008, msg: 'Server is currently overloaded with other requests. Please try again in a few minutes.' } : { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' });
      return;
    }
    let status = 200;
    let body: unknown;
    try {
      body = route(endpoint, request, query, rawQuery, rawBody, fault);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      status = error.status;
      seen.code = error.code;
      body = { code: error.code, msg: error.message };
    }
    if (fault?.kind === 'drop_answer') {
      seen.status = -1;
      response.socket?.destroy();
      return;
    }
    if (fault?.kind === 'delay_answer') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (response.destroyed) return;
    send(status, body, endpoint === 'POST /order' ? { 'X-MBX-ORDER-COUNT-10S': '1', 'X-MBX-ORDER-COUNT-1D': String(orders.length) } : {});
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ code: -1000, msg: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** http://127.0.0.1:port: Binance's `https://api.binance.com` here. */
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** How many requests met a fault of this kind (counted as they came, for a soak's many requests). */
    faultsMet: (kind: string) => faultsMet.get(kind) ?? 0,
    orders,
    trades,
    /** A Binance account with these balances. */
    addAccount(apiKey: string, secret: string, balances: Record<string, string>, { payFeesInBnb = false } = {}) {
      const account: LocalAccount = {
        apiKey,
        secret,
        payFeesInBnb,
        balances: Object.fromEntries(Object.entries(balances).map(([asset, free]) => [asset, { free: new Big(free), locked: new Big(0) }])),
      };
      accounts.set(apiKey, account);
      return account;
    },
    balance(apiKey: string, asset: string) {
      const held = accounts.get(apiKey)!.balances[asset];
      return { free: held?.free.toFixed() ?? '0', locked: held?.locked.toFixed() ?? '0' };
    },
    price: (symbol: string) => prices.get(symbol)!.toFixed(),
    /** Moves a symbol's price and fills the resting orders it reaches. */
    setPrice(symbol: string, price: string) {
      prices.set(symbol, new Big(price));
      matchResting();
    },
    /** One step for every symbol: its next close in the history given, else the seeded walk (up to ±0.5 %, on the tick). */
    walk() {
      for (const [symbol, price] of prices) {
        const path = history.get(symbol);
        if (path) {
          prices.set(symbol, new Big(path.closes[path.next % path.closes.length]!));
          path.next += 1;
          continue;
        }
        const tick = filters.get(symbol)!.tickSize;
        const next = floorTo(price.times(1 + (random() - 0.5) / 100), tick);
        prices.set(symbol, next.gt(0) ? next : tick);
      }
      matchResting();
    },
    /** Queues faults for the next requests to an endpoint, one request each. */
    fault(endpoint: Endpoint, ...given: Fault[]) {
      faults.set(endpoint, [...(faults.get(endpoint) ?? []), ...given]);
    },
    /** Drops the faults queued and not yet met. */
    clearFaults() {
      faults.clear();
    },
    /** Faults drawn from the seed for every request from now on (none: off). */
    randomFaults(given: RandomFaults | undefined) {
      randomFaults = given;
    },
    maintenance(on: boolean) {
      inMaintenance = on;
    },
    /** The exchange's clock runs this far ahead of ours (negative: behind). */
    skewClock(ms: number) {
      skewMs = ms;
    },
    /** The exchange cancels an open order (a delisting, self-trade prevention). */
    cancelByExchange(clientOrderId: string) {
      const order = orders.find((candidate) => candidate.clientOrderId === clientOrderId)!;
      order.status = order.executedQty.gt(0) ? 'CANCELED' : 'EXPIRED';
      release(order);
    },
    weightUsed: () => weight.used,
    /** The weight of each minute so far, the current one last. */
    minutes: () => [...minutes, { ...weight }],
    /** The most weight used in any minute so far (the requests refused over the limit included). */
    peakWeight: () => peakWeight,
    weightLimit,
    /** This minute's weight as if other clients on the same address had used it. */
    useWeight(used: number) {
      weight = { minute: Math.floor(Date.now() / 60_000), used };
    },
    count: (endpoint: Endpoint) => requests.filter((request) => request.endpoint === endpoint).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type LocalBinance = Awaited<ReturnType<typeof startLocalBinance>>;
