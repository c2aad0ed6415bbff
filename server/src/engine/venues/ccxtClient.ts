/**
 * The engine's ExchangeClient over a ccxt exchange (made by exchangeAccess.ts).
 * With the key check in exchange/verify.ts, the only place that knows ccxt's calls: its errors become our
 * failures in the one table below, reads are retried with backoff, and an
 * order creation is never retried (but for a timestamp the exchange refused
 * before carrying the order out: sent once more on the exchange's clock).
 * Rate limits and bans pause the whole exchange for every client of the
 * process (exchangePauses.ts), and nothing is sent to it meanwhile.
 *
 * Money out of ccxt. ccxt parses the exchange's decimal strings with string
 * arithmetic and turns each result into a JavaScript number once, at the end.
 * A double holds any decimal of up to 15 significant digits faithfully, so
 * `toPrecision(15)` gives back the exchange's own digits (every 8-decimal
 * amount below ten million units), and cuts the binary tail of a value ccxt
 * derived itself (Binance's average is cost / filled). We do not read `info`,
 * whose field names differ per exchange, and we do not round reported values
 * to the market's grid: an average or a fee is not on it, and a reported fill
 * is a fact, not something to correct.
 *
 * Money into ccxt. Our amounts are rounded down to the market's step with
 * big.js and handed to ccxt as numbers only when they have at most 15
 * significant digits, so ccxt's own formatting (amountToPrecision,
 * costToPrecision) writes exactly our digits into the request.
 */
import Big from 'big.js';
import {
  AccountSuspended,
  AuthenticationError,
  BadRequest,
  BaseError,
  BadResponse,
  BadSymbol,
  DDoSProtection,
  DuplicateOrderId,
  ExchangeError,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  OperationFailed,
  OrderNotFound,
  PermissionDenied,
  RateLimitExceeded,
  RequestTimeout,
  functions,
  type Exchange,
  type MarketInterface,
  type Order as CcxtOrder,
  type Ticker as CcxtTicker,
  type Trade as CcxtTrade,
} from 'ccxt';
import type { DecimalString } from '../../../../src/api/types';
import { createCcxtExchange, redact, SPOT_SETTINGS, type Credentials, type ExchangeFactory } from './exchangeAccess';
import { processPauses, type ExchangePauses } from './exchangePauses';
import { createExchangeShared, type ExchangeShared } from './exchangeShared';
import { budgetRulesOf, isOrderCall } from './exchangeWeights';
import { ENGINE_READ, headerOf, ORDER, type Priority } from './rateBudget';
import {
  ExchangeClientError,
  type Balance,
  type ExchangeClient,
  type ExchangeFailure,
  type InvalidOrderReason,
  type MarketInfo,
  type MarketOrderRequest,
  type Order,
  type OrderFee,
  type OrderStatus,
  type Ticker,
} from './exchangeClient';
import type { Candle } from '../core/candles';
import { floorToStep, isDecimalString } from '../core/decimal';

type ErrorClass = abstract new (...args: never[]) => Error;
type Transient = Extract<ExchangeFailure, { kind: 'transient' }>;

/** Decided from the error's message: exchanges share one ccxt class for every kind of invalid order. */
const FROM_MESSAGE = 'invalid_order_from_message';

const transient = (reason: Transient['reason']): Transient => ({ kind: 'transient', reason, retryable: true });

/**
 * ccxt's errors as ours. The first class that matches wins, so subclasses
 * come before their parents (ccxt's hierarchy: InvalidOrder, BadRequest,
 * AuthenticationError and InsufficientFunds are ExchangeErrors; the rest are
 * OperationFailed). Transient failures are written as a read sees them;
 * createMarketOrder turns them into unknown_outcome.
 */
const ERROR_TABLE: readonly (readonly [ErrorClass, ExchangeFailure | typeof FROM_MESSAGE])[] = [
  [InsufficientFunds, { kind: 'insufficient_funds' }],
  [OrderNotFound, { kind: 'invalid_order', reason: 'order_not_found' }],
  [DuplicateOrderId, { kind: 'invalid_order', reason: 'duplicate_client_order_id' }],
  [BadSymbol, { kind: 'invalid_order', reason: 'bad_symbol' }],
  [InvalidOrder, FROM_MESSAGE],
  // Binance's filter failures (-1013 NOTIONAL, LOT_SIZE) and -1111 precision arrive as BadRequest.
  [BadRequest, FROM_MESSAGE],
  [PermissionDenied, { kind: 'permission', reason: 'permission_denied' }],
  [AccountSuspended, { kind: 'permission', reason: 'account_suspended' }],
  [AuthenticationError, { kind: 'permission', reason: 'invalid_key' }],
  [ExchangeError, { kind: 'refused' }],
  // Binance answers HTTP 429 / 418 with DDoSProtection, its -1003 body with RateLimitExceeded.
  [RateLimitExceeded, transient('exchange_busy')],
  [DDoSProtection, transient('exchange_busy')],
  [InvalidNonce, transient('clock_skew')],
  [RequestTimeout, transient('exchange_unreachable')],
  [ExchangeNotAvailable, transient('exchange_unreachable')],
  [NetworkError, transient('exchange_unreachable')],
  [BadResponse, transient('bad_response')],
  // Binance -1006 "execution status unknown" and other OperationFailed: the exchange itself does not know.
  [OperationFailed, transient('exchange_unreachable')],
];

/** Exchange messages that say which rule an order broke; the first match wins. */
const INVALID_ORDER_REASONS: readonly (readonly [RegExp, InvalidOrderReason])[] = [
  // Binance's NOTIONAL / MIN_NOTIONAL filters.
  [/NOTIONAL|min(imum)?\s+(order\s+)?(value|cost)/i, 'below_min_cost'],
  // Binance's LOT_SIZE (our amounts are already on the step: the minimum, or the maximum, told apart by the amount sent); OKX 51020.
  [/LOT_SIZE|min(imum)?\s+(available\s+)?(amount|size|quantity)/i, 'below_min_amount'],
  // Binance -1111 and PRICE_FILTER; OKX 51121 "integer multiples of the lot size".
  [/precision|PRICE_FILTER|multiple/i, 'precision'],
];

const invalidOrderReason = (message: string): InvalidOrderReason =>
  INVALID_ORDER_REASONS.find(([pattern]) => pattern.test(message))?.[1] ?? 'rejected';

/**
 * Binance codes that ccxt files under a class saying something else: what
 * they mean for us, after Binance's own list. -1016 SERVICE_SHUTTING_DOWN
 * (maintenance, with HTTP 503) is a BadRequest in ccxt, which would make an
 * order sent during maintenance refused for good.
 */
const BINANCE_CODES: Record<string, ExchangeFailure> = {
  '-1016': transient('exchange_unreachable'),
};

/** ccxt writes Binance's refusals as `binance {"code":-1016,"msg":...}`. */
const binanceCode = (message: string) => /^binance\b.*"code":\s*(-\d+)/s.exec(message)?.[1];

/**
 * OKX codes ccxt files as a plain InvalidOrder, whose message names no rule
 * we can read: an order above the largest one the market takes (51201 a
 * market order's value, 51202 a market order's amount, 51203 any order's
 * amount) is refused for its size, which the user can fix, not for a reason
 * nobody knows. OKX's maintenance (50001, HTTP 503) is ccxt's OnMaintenance,
 * transient as it is.
 */
const OKX_CODES: Record<string, ExchangeFailure> = {
  '51201': { kind: 'invalid_order', reason: 'above_max_amount' },
  '51202': { kind: 'invalid_order', reason: 'above_max_amount' },
  '51203': { kind: 'invalid_order', reason: 'above_max_amount' },
};

/** ccxt writes OKX's refusals as `okx {"code":"1","data":[{"sCode":"51202",...}],...}`: the order's own code first, else the answer's. */
const okxCode = (message: string) => {
  if (!/^okx\b/.test(message)) return undefined;
  return /"sCode":\s*"(\d+)"/.exec(message)?.[1] ?? /"code":\s*"(\d+)"/.exec(message)?.[1];
};

/** Our failure for a ccxt error; undefined for anything else (a bug, not an answer from the exchange). */
export const classifyCcxtError = (error: unknown): ExchangeFailure | undefined => {
  const code = error instanceof BaseError ? binanceCode(error.message) : undefined;
  if (code && BINANCE_CODES[code]) return BINANCE_CODES[code];
  const okx = error instanceof BaseError ? okxCode(error.message) : undefined;
  if (okx && OKX_CODES[okx]) return OKX_CODES[okx];
  const row = ERROR_TABLE.find(([errorClass]) => error instanceof errorClass);
  if (!row) return undefined;
  const failure = row[1];
  return failure === FROM_MESSAGE ? { kind: 'invalid_order', reason: invalidOrderReason((error as Error).message) } : failure;
};

/** A number from ccxt as the exchange wrote it (see the top of this file). */
const decimal = (value: number): DecimalString => new Big(value.toPrecision(15)).toFixed();

const decimalOrNull = (value: number | undefined): DecimalString | null =>
  value === undefined || value === null || !Number.isFinite(value) ? null : decimal(value);

/** Refused before anything is sent. */
const refuse = (reason: InvalidOrderReason, detail?: string): never => {
  throw new ExchangeClientError({ kind: 'invalid_order', reason }, detail);
};

/** One of our decimals as the number ccxt takes, refused when a double would not carry it exactly. */
const toCcxtNumber = (value: Big): number => {
  const number = Number(value.toFixed());
  if (!new Big(number.toPrecision(15)).eq(value)) refuse('precision', value.toFixed());
  return number;
};

/**
 * ccxt's precision as a step size: TICK_SIZE markets state the step, DECIMAL_PLACES
 * markets a number of decimals; SIGNIFICANT_DIGITS has no fixed step (undefined).
 */
const stepOf = (exchange: Exchange, precision: number | undefined): DecimalString | undefined => {
  if (precision === undefined || precision === null) return undefined;
  if (exchange.precisionMode === functions.TICK_SIZE) return decimal(precision);
  if (exchange.precisionMode === functions.DECIMAL_PLACES) return new Big(exchange.parsePrecision(String(precision))!).toFixed();
  return undefined;
};

/** A spot market the engine can trade, or undefined (derivatives, delisted, no fixed steps). */
export const toMarketInfo = (exchange: Exchange, market: MarketInterface): MarketInfo | undefined => {
  if (market.spot !== true || market.active === false) return undefined;
  const amount = stepOf(exchange, market.precision.amount);
  const price = stepOf(exchange, market.precision.price);
  if (amount === undefined || price === undefined) return undefined;
  return {
    symbol: market.symbol,
    base: market.base,
    quote: market.quote,
    precision: { amount, price },
    limits: {
      amount: { min: decimalOrNull(market.limits.amount?.min) ?? '0', ...(decimalOrNull(market.limits.amount?.max) === null ? {} : { max: decimalOrNull(market.limits.amount?.max)! }) },
      cost: { min: decimalOrNull(market.limits.cost?.min) ?? '0' },
    },
    ...(decimalOrNull(market.taker) === null ? {} : { taker: decimalOrNull(market.taker)! }),
  };
};

const STATUSES: Record<string, OrderStatus> = { open: 'open', closed: 'closed', canceled: 'canceled', expired: 'canceled', rejected: 'rejected' };

/** A single fee; several fees in one currency are summed by ccxt already, several currencies give null. */
const feeOf = (order: CcxtOrder & { fees?: CcxtOrder['fee'][] }): Order['fee'] => {
  const fees = order.fees?.length ? order.fees : order.fee ? [order.fee] : [];
  if (fees.length !== 1) return null;
  const [fee] = fees;
  return fee?.currency && fee.cost !== undefined ? { currency: fee.currency, cost: decimal(fee.cost) } : null;
};

/**
 * Exchanges whose order answer carries no cost of what filled: ccxt's OKX
 * parser gives a spot market buy in the quote currency the `sz` asked for as
 * its cost, which a partial fill (its rest cancelled) spent only in part.
 * Their cost is what filled at its average price (OKX's accFillSz and avgPx).
 */
const COST_FROM_AVERAGE = new Set(['okx']);

/** An order as ccxt parsed it. An acknowledgement without a status (OKX's order placement) counts as open. */
const toOrder = (order: CcxtOrder, request: { symbol: string; clientOrderId: string }, costFromAverage = false): Order => {
  const filled = decimalOrNull(order.filled) ?? '0';
  const average = order.filled ? decimalOrNull(order.average) : null;
  return {
    id: order.id ?? '',
    clientOrderId: order.clientOrderId ?? request.clientOrderId,
    symbol: order.symbol ?? request.symbol,
    side: order.side === 'sell' ? 'sell' : 'buy',
    status: STATUSES[order.status ?? 'open'] ?? 'open',
    average,
    filled,
    cost: costFromAverage ? (average === null ? '0' : new Big(filled).times(average).toFixed()) : (decimalOrNull(order.cost) ?? '0'),
    fee: feeOf(order),
    timestamp: order.timestamp ?? null,
  };
};

const balanceOf = (amounts: unknown): Record<string, DecimalString> => {
  const result: Record<string, DecimalString> = {};
  for (const [asset, value] of Object.entries((amounts ?? {}) as Record<string, number | undefined>)) {
    const amount = decimalOrNull(value);
    if (amount !== null) result[asset] = amount;
  }
  return result;
};

/** A positive decimal string, or a refusal. */
const positive = (value: string | undefined, reason: InvalidOrderReason): Big => {
  if (!isDecimalString(value) || new Big(value).lte(0)) return refuse(reason);
  return new Big(value);
};

/** The base amount to send, on the market's step. */
const amountToSend = (amount: Big, market: MarketInfo): number => {
  const onStep = floorToStep(amount, market.precision.amount);
  if (onStep.lte(0) || onStep.lt(market.limits.amount.min)) refuse('below_min_amount', `${onStep.toFixed()} ${market.base}`);
  if (market.limits.amount.max !== undefined && new Big(market.limits.amount.max).gt(0) && onStep.gt(market.limits.amount.max)) refuse('above_max_amount', `${onStep.toFixed()} ${market.base}`);
  return toCcxtNumber(onStep);
};

/** Accepted by Binance (newClientOrderId: 1-36 of [.A-Za-z0-9:/_-]) and OKX (clOrdId: 1-32 letters and digits, a letter first). */
const CLIENT_ORDER_ID = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/** Reads get this many attempts in all. */
const READ_ATTEMPTS = 3;


export interface CcxtClientOptions {
  /** ccxt's id: 'binance', 'okx'... */
  exchangeId: string;
  /** Absent: a public client (markets, prices, candles), which refuses private calls. */
  credentials?: Credentials;
  /** Tests pass one whose HTTP layer replays recorded answers. */
  createExchange?: ExchangeFactory;
  /** Per HTTP request. */
  timeoutMs?: number;
  /** Pause before a read's second attempt; it doubles before each next one. */
  retryDelayMs?: number;
  /** Whole exchanges paused by a 429 or a 418 ban, shared by every client (the process's by default). */
  pauses?: ExchangePauses;
  /** The longest Retry-After a read waits out; a longer pause fails it at once, as transient. */
  maxWaitMs?: number;
  /** The priority of this client's reads in the exchange's request budget (orders always go first). */
  readPriority?: Priority;
  /** The budget and market list shared with the exchange's other clients (the server's, enginePlugin.ts); without it the client's own. */
  shared?: ExchangeShared;
}

/**
 * Until when a rate-limit answer asks the whole exchange to wait: its
 * Retry-After, else the ban's end Binance names, else 2 minutes for a 418
 * ban (its shortest); a 429 that names no time pauses nothing (the read's
 * backoff spaces the next attempt).
 */
export const pauseEnd = (error: Error, headers: unknown, now: number): number => {
  const retryAfter = Number(headerOf(headers, 'retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return now + retryAfter * 1000;
  const bannedUntil = /banned until (\d{13})/.exec(error.message)?.[1];
  if (bannedUntil) return Number(bannedUntil);
  return / 418 /.test(error.message) ? now + 120_000 : now;
};

/** Until when a 429 or 418 answer pauses the exchange: its Retry-After, else the ban's end Binance names, else 2 minutes for a ban and 1 s for a 429. */
const rateLimitEnd = (status: number, headers: unknown, body: string, now: number): number => {
  const retryAfter = Number(headerOf(headers, 'retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return now + retryAfter * 1000;
  const bannedUntil = /banned until (\d{13})/.exec(body)?.[1];
  if (bannedUntil) return Number(bannedUntil);
  return now + (status === 418 ? 120_000 : 1_000);
};

export const createCcxtClient = ({
  exchangeId,
  credentials,
  createExchange = createCcxtExchange,
  timeoutMs = 10_000,
  retryDelayMs = 500,
  pauses = processPauses,
  maxWaitMs = 5_000,
  readPriority = ENGINE_READ,
  shared: givenShared,
}: CcxtClientOptions): ExchangeClient => {
  // A client shares nothing it was not given: its budget and markets are its own.
  const shared = givenShared ?? createExchangeShared(pauses);
  // Requests are spaced by the shared budget below, not by each instance's own throttle (which would send a queued request during a pause).
  const exchange = createExchange(exchangeId, {
    ...(credentials ?? {}),
    timeout: timeoutMs,
    ...SPOT_SETTINGS,
    enableRateLimit: false,
  });
  exchange.enableRateLimit = false;
  /**
   * The exchange's flavour: a testnet is another server, with its own limits, bans and markets. Named as its
   * account type ('binance-testnet'), as the key check and the task log read its pauses.
   */
  const flavour = exchange.isSandboxModeEnabled ? `${exchangeId}-testnet` : exchangeId;
  const { rules, weightOf } = budgetRulesOf(exchangeId);
  const costFromAverage = COST_FROM_AVERAGE.has(exchangeId);
  const budget = shared.budgets.budgetFor(flavour, rules);
  let markets: Promise<Map<string, MarketInfo>> | undefined;

  const failure = (kind: ExchangeFailure, error: unknown) =>
    new ExchangeClientError(kind, redact(error instanceof Error ? error.message : String(error), credentials ?? {}));

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Nothing is sent to a paused exchange: asking during a ban makes it longer. */
  const paused = (call: 'read' | 'order' = 'read') => {
    const until = pauses.until(flavour, call);
    return until === undefined ? 0 : until - Date.now();
  };
  const refuseWhilePaused = (call: 'read' | 'order' = 'read') => {
    const wait = paused(call);
    if (wait > 0) throw new ExchangeClientError(transient('exchange_busy'), `${flavour} is paused for ${Math.ceil(wait / 1000)} s (rate limit)`);
  };

  /**
   * Every HTTP request of this instance waits for room in the shared budget
   * (and for the end of a pause) just before it is signed and sent. A 429 or
   * 418 pauses the exchange before the budget lets the next request go.
   */
  const send = exchange.fetch2.bind(exchange);
  exchange.fetch2 = async (path, api = 'public', method = 'GET', params = {}, headers = undefined, body = undefined, config = {}) => {
    const call = String(path);
    const verb = String(method).toUpperCase();
    const request = (params ?? {}) as Record<string, unknown>;
    const priority = isOrderCall(call, verb) ? ORDER : readPriority;
    const done = await budget.take(weightOf(call, verb, request), priority, priority === ORDER ? 0 : maxWaitMs);
    try {
      return (await send(path, api, method, params, headers, body, config)) as unknown;
    } finally {
      done();
    }
  };
  /**
   * Each answer as it arrives, with its own headers (ccxt's last_response_headers
   * may already be another concurrent answer's by the time an error reaches
   * us): the exchange's weight count, and a 429 or 418 pausing the exchange
   * before any other request may leave.
   */
  const onRestResponse = exchange.onRestResponse.bind(exchange);
  exchange.onRestResponse = (status, statusText, url, method, responseHeaders, responseBody, requestHeaders, requestBody) => {
    budget.observe(responseHeaders);
    if (status === 429 || status === 418) pauses.pause(flavour, rateLimitEnd(status, responseHeaders, String(responseBody), Date.now()));
    return onRestResponse(status, statusText, url, method, responseHeaders, responseBody, requestHeaders, requestBody);
  };

  /**
   * What a failed call teaches about the exchange as a whole: a rate limit
   * pauses it for every client until its Retry-After; a clock difference is
   * measured again (ccxt then signs with the exchange's time).
   */
  const learn = async (known: ExchangeFailure, error: unknown) => {
    if (known.kind !== 'transient') return;
    if (known.reason === 'exchange_busy' && error instanceof Error) {
      pauses.pause(flavour, pauseEnd(error, exchange.last_response_headers, Date.now()));
    }
    // The clock is read only while the exchange may be asked; a rate limit on that read pauses it like any other's.
    if (known.reason === 'clock_skew' && paused() <= 0) {
      try {
        await exchange.loadTimeDifference();
      } catch (resync) {
        const again = classifyCcxtError(resync);
        if (again?.kind === 'transient' && again.reason === 'exchange_busy' && resync instanceof Error) {
          pauses.pause(flavour, pauseEnd(resync, exchange.last_response_headers, Date.now()));
        }
      }
    }
  };

  /**
   * A read: transient failures are tried again with exponential backoff,
   * READ_ATTEMPTS in all, waiting out a short Retry-After; a longer pause
   * fails it at once.
   */
  const read = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      const wait = paused();
      if (wait > maxWaitMs) refuseWhilePaused();
      if (wait > 0) await sleep(wait);
      try {
        return await call();
      } catch (error) {
        // Refused by the budget without being sent (a long pause): a transient failure already.
        if (error instanceof ExchangeClientError) throw error;
        const known = classifyCcxtError(error);
        if (!known) throw error;
        await learn(known, error);
        if (known.kind !== 'transient' || attempt >= READ_ATTEMPTS || paused() > maxWaitMs) throw failure(known, error);
        await sleep(Math.max(retryDelayMs * 2 ** (attempt - 1), paused()));
      }
    }
  };

  /**
   * Every call goes through here first: ccxt would load the markets itself
   * inside any call, but it keeps a failed load's rejection and hands it to
   * every later caller, so we load them (reload: true) with our retries,
   * once per exchange flavour for the whole server (sharedMarkets.ts), and
   * hand the list to this instance.
   */
  let marketsOf: Promise<MarketInterface[]> | undefined;
  const loadMarkets = (): Promise<Map<string, MarketInfo>> => {
    const list = shared.markets.get(flavour, async () => Object.values(await read(() => exchange.loadMarkets(true))) as MarketInterface[]);
    if (list !== marketsOf) markets = undefined;
    marketsOf = list;
    markets ??= list.then(
      (loaded) => {
        exchange.setMarkets(loaded);
        const tradable = new Map<string, MarketInfo>();
        for (const market of loaded) {
          const info = market && toMarketInfo(exchange, market);
          if (info) tradable.set(info.symbol, info);
        }
        return tradable;
      },
      (error: unknown) => {
        markets = undefined;
        marketsOf = undefined;
        throw error;
      },
    );
    return markets;
  };

  const marketOf = async (symbol: string): Promise<MarketInfo> => {
    const market = (await loadMarkets()).get(symbol);
    if (!market) throw new ExchangeClientError({ kind: 'invalid_order', reason: 'bad_symbol' }, symbol);
    return market;
  };

  const toTicker = (symbol: string, ticker: CcxtTicker): Ticker => ({
    symbol,
    timestamp: ticker.timestamp ?? null,
    bid: decimalOrNull(ticker.bid),
    ask: decimalOrNull(ticker.ask),
    last: decimalOrNull(ticker.last),
    change24h: decimalOrNull(ticker.percentage),
    quoteVolume24h: decimalOrNull(ticker.quoteVolume),
  });

  const fetchTicker = async (symbol: string): Promise<Ticker> => {
    await marketOf(symbol);
    return toTicker(symbol, await read(() => exchange.fetchTicker(symbol)));
  };

  const fetchTickers = async (symbols: string[]): Promise<Ticker[]> => {
    for (const symbol of symbols) await marketOf(symbol);
    const tickers = await read(() => exchange.fetchTickers(symbols));
    return symbols.filter((symbol) => tickers[symbol]).map((symbol) => toTicker(symbol, tickers[symbol]!));
  };

  const fetchOrderByClientOrderId = async (symbol: string, clientOrderId: string): Promise<Order | null> => {
    await marketOf(symbol);
    try {
      // Binance sends it as origClientOrderId, OKX as clOrdId; the id argument is then unused.
      const order = await read(() => exchange.fetchOrder(clientOrderId, symbol, { clientOrderId }));
      return toOrder(order, { symbol, clientOrderId }, costFromAverage);
    } catch (error) {
      if (error instanceof ExchangeClientError && error.failure.kind === 'invalid_order' && error.failure.reason === 'order_not_found') return null;
      throw error;
    }
  };

  const createMarketOrder = async ({ symbol, side, amount, cost, clientOrderId }: MarketOrderRequest): Promise<Order> => {
    if (typeof clientOrderId !== 'string' || !CLIENT_ORDER_ID.test(clientOrderId)) refuse('bad_client_order_id');
    if (side !== 'buy' && side !== 'sell') refuse('bad_side');
    const market = await marketOf(symbol);
    // Both exchanges read ccxt's unified clientOrderId: Binance sends newClientOrderId, OKX clOrdId.
    const params = { clientOrderId };
    let place: () => Promise<CcxtOrder>;
    /** The base amount sent, when the order names one (a spend-this-much buy does not). */
    let sentAmount: Big | null = null;
    if (cost !== undefined) {
      if (side !== 'buy' || amount !== undefined) refuse('bad_cost');
      const quote = positive(cost, 'bad_cost');
      if (exchange.has.createMarketBuyOrderWithCost === true) {
        // Binance: quoteOrderQty; OKX: sz in the quote currency with tgtCcy=quote_ccy.
        const value = toCcxtNumber(quote);
        place = () => exchange.createMarketBuyOrderWithCost(symbol, value, params);
      } else {
        // No spend-this-much order here: buy what the cost pays at the ask, rounded down to the step.
        const { ask, last } = await fetchTicker(symbol);
        const price = ask ?? last;
        if (price === null) throw new ExchangeClientError(transient('bad_response'), `${symbol} has no price`);
        const base = amountToSend(quote.div(price), market);
        sentAmount = new Big(base);
        place = () => exchange.createOrder(symbol, 'market', 'buy', base, undefined, params);
      }
    } else {
      const base = amountToSend(positive(amount, 'bad_amount'), market);
      sentAmount = new Big(base);
      place = () => exchange.createOrder(symbol, 'market', side, base, undefined, params);
    }
    /**
     * Binance says LOT_SIZE (or MARKET_LOT_SIZE) whether an amount is below the
     * minimum or above the maximum. Ours are checked against the minimum
     * before they go, so the amount (for a spend-this-much buy: the cost at the
     * ask) tells which.
     */
    const lotSizeReason = async (known: ExchangeFailure): Promise<ExchangeFailure> => {
      const max = market.limits.amount.max;
      if (known.kind !== 'invalid_order' || known.reason !== 'below_min_amount' || max === undefined || new Big(max).lte(0)) return known;
      let base = sentAmount;
      if (base === null && cost !== undefined) {
        try {
          const { ask, last } = await fetchTicker(symbol);
          const price = ask ?? last;
          if (price !== null && new Big(price).gt(0)) base = new Big(cost).div(price);
        } catch {
          // No price now: the exchange's own word (LOT_SIZE) stands as the minimum.
        }
      }
      return base !== null && base.gt(max) ? { kind: 'invalid_order', reason: 'above_max_amount' } : known;
    };

    let placed: CcxtOrder;
    for (let attempt = 1; ; attempt += 1) {
      // Not sent while the exchange is paused: known not placed.
      refuseWhilePaused('order');
      try {
        placed = await place();
        break;
      } catch (error) {
        // Held back by the budget or a pause before it was sent: known not placed.
        if (error instanceof ExchangeClientError) throw error;
        const known = classifyCcxtError(error);
        if (known) await learn(known, error);
        // Refused for its timestamp before it was carried out: sent again once, signed with the exchange's time.
        if (known?.kind === 'transient' && known.reason === 'clock_skew' && attempt === 1) continue;
        // Only the exchange's explicit refusal says the order does not exist; a
        // lost or garbled answer, or an error of ours after sending, may hide one.
        throw failure(!known || known.kind === 'transient' ? { kind: 'unknown_outcome', clientOrderId } : await lotSizeReason(known), error);
      }
    }
    const order = toOrder(placed, { symbol, clientOrderId }, costFromAverage);
    if (placed.status !== undefined) return order;
    // Acknowledged without its fill (OKX answers with the ids only): ask for the order itself.
    try {
      return (await fetchOrderByClientOrderId(symbol, clientOrderId)) ?? order;
    } catch {
      // It was placed; the caller finds it open and asks again later.
      return order;
    }
  };

  /** What an order's trades paid in fees, per asset: the order query leaves it out on some exchanges (Binance). */
  const fetchOrderFees = async (symbol: string, orderId: string): Promise<OrderFee[]> => {
    await marketOf(symbol);
    const trades = exchange.has.fetchOrderTrades
      ? await read(() => exchange.fetchOrderTrades(orderId, symbol))
      : (await read(() => exchange.fetchMyTrades(symbol))).filter((trade) => trade.order === orderId);
    // A filled order has trades; none yet means the exchange has not caught up: ask again later.
    if (trades.length === 0) throw new ExchangeClientError(transient('bad_response'), `no trades of order ${orderId} yet`);
    const sums = new Map<string, Big>();
    for (const trade of trades as (CcxtTrade & { fees?: CcxtTrade['fee'][] })[]) {
      const fees = (trade.fees?.length ? trade.fees : trade.fee ? [trade.fee] : []) as { currency?: string; cost?: number }[];
      for (const fee of fees) {
        if (!fee.currency || fee.cost === undefined || fee.cost === null) continue;
        sums.set(fee.currency, (sums.get(fee.currency) ?? new Big(0)).plus(decimal(fee.cost)));
      }
    }
    return [...sums].map(([currency, cost]) => ({ currency, cost: cost.toFixed() }));
  };

  /** Candles of a pair, oldest first: [open time ms, open, high, low, close, base volume] as decimals. */
  const fetchOHLCV = async (symbol: string, timeframe: string, limit: number): Promise<Candle[]> => {
    await marketOf(symbol);
    const rows = await read(() => exchange.fetchOHLCV(symbol, timeframe, undefined, limit));
    return rows.flatMap(([time, open, high, low, close, volume]) =>
      time === undefined || open === undefined || high === undefined || low === undefined || close === undefined
        ? []
        : [{ time, open: decimal(open), high: decimal(high), low: decimal(low), close: decimal(close), volume: decimal(volume ?? 0) }],
    );
  };

  return {
    loadMarkets: async () => [...(await loadMarkets()).values()],
    fetchOHLCV,
    fetchOrderFees,
    fetchTicker,
    fetchTickers,
    fetchBalance: async (): Promise<Balance> => {
      await loadMarkets();
      const balance = await read(() => exchange.fetchBalance());
      return { free: balanceOf(balance.free), used: balanceOf(balance.used), total: balanceOf(balance.total) };
    },
    createMarketOrder,
    fetchOrderByClientOrderId,
    cancelOrder: async (symbol, orderId) => {
      await marketOf(symbol);
      // Asking again is harmless: an order already cancelled (or done) is refused, and the order query tells.
      await read(() => exchange.cancelOrder(orderId, symbol));
    },
    fetchOpenOrders: async (symbol) => {
      if (symbol === undefined) await loadMarkets();
      else await marketOf(symbol);
      const orders = await read(() => exchange.fetchOpenOrders(symbol));
      return orders.map((order) => toOrder(order, { symbol: symbol ?? '', clientOrderId: '' }, costFromAverage));
    },
  };
};
