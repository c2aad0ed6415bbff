import Big from 'big.js';
import * as ccxtErrors from 'ccxt';
import { describe, expect, it } from 'vitest';
import { classifyCcxtError, createCcxtClient } from '../src/engine/venues/ccxtClient';
import { fromPaperFailure } from '../src/engine/venues/exchangeClient';
import { createPaperExchange, PaperExchangeError } from '../src/engine/venues/paper/exchange';
import { createMarket } from '../src/engine/venues/paper/market';
import { newClientOrderId } from '../src/engine/runner/runner';
import type { Credentials, ExchangeFactory } from '../src/engine/venues/exchangeAccess';
import binance from './fixtures/binance-orders.json';
import okx from './fixtures/okx-orders.json';
import { failureOf, recordedExchange, type RecordedAnswer } from './recordedExchange';

/**
 * The engine's exchange client over ccxt's own Binance and OKX classes, fed
 * recorded exchange answers: markets, balance, orders with our client order
 * id, and every kind of refusal; then the paper exchange behind the same
 * interface.
 */

const KEYS: Record<'binance' | 'okx', Credentials> = {
  binance: {
    apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
    secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
  },
  okx: {
    apiKey: '4a0b9d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
    secret: '9F3B1C2D4E5F60718293A4B5C6D7E8F9',
    password: 'Dca-Robot-Passphrase-7',
  },
};

interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The recorded exchange plus what these tests look at: each request's query
 * and body, and answers given once ahead of the standing ones (a 429, then
 * the real answer).
 */
const replayed = (exchangeId: 'binance' | 'okx', standing: RecordedAnswer[], { withoutCostOrders = false } = {}) => {
  const replay = recordedExchange();
  replay.answer(...standing);
  const sent: Sent[] = [];
  const once: RecordedAnswer[] = [];
  const factory: ExchangeFactory = (id, settings) => {
    const exchange = replay.factory(id, settings);
    if (withoutCostOrders) exchange.has.createMarketBuyOrderWithCost = false;
    const recorded = exchange.fetchImplementation as Fetch;
    exchange.fetchImplementation = (async (url, init) => {
      const method = (init.method ?? 'GET').toUpperCase();
      const { pathname, searchParams } = new URL(url);
      sent.push({ method, path: pathname, query: searchParams, body: typeof init.body === 'string' ? init.body : '' });
      const index = once.findIndex((answer) => answer.method === method && answer.path === pathname);
      if (index < 0) return recorded(url, init);
      const [answer] = once.splice(index, 1);
      return new Response(JSON.stringify(answer!.body), { status: answer!.status, headers: { 'Content-Type': 'application/json' } });
    }) satisfies Fetch;
    return exchange;
  };
  const client = createCcxtClient({ exchangeId, credentials: KEYS[exchangeId], createExchange: factory, retryDelayMs: 1 });
  return {
    client,
    replay,
    /** Answers given once each, before the standing ones. */
    once: (...answers: RecordedAnswer[]) => once.push(...answers),
    sentTo: (method: string, path: string) => sent.filter((request) => request.method === method && request.path === path),
  };
};

const BINANCE_ORDER_ID = binance.clientOrderId;
const OKX_ORDER_ID = okx.clientOrderId;

describe('ccxt errors as the engine sees them', () => {
  it.each([
    ['InsufficientFunds', 'binance {"code":-2010,"msg":"Account has insufficient balance for requested action."}', { kind: 'insufficient_funds' }],
    ['OrderNotFound', 'binance {"code":-2013,"msg":"Order does not exist."}', { kind: 'invalid_order', reason: 'order_not_found' }],
    ['DuplicateOrderId', 'okx 51016 Duplicated clOrdId', { kind: 'invalid_order', reason: 'duplicate_client_order_id' }],
    ['BadSymbol', 'okx 51001 Instrument ID does not exist', { kind: 'invalid_order', reason: 'bad_symbol' }],
    ['BadRequest', 'binance {"code":-1013,"msg":"Filter failure: NOTIONAL"}', { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['InvalidOrder', 'binance order amount should be evenly divisible by lot size {"code":-1013,"msg":"Filter failure: LOT_SIZE"}', { kind: 'invalid_order', reason: 'below_min_amount' }],
    ['InvalidOrder', 'okx {"code":"1","data":[{"sCode":"51020","sMsg":"Order amount should be greater than the min available amount."}]}', { kind: 'invalid_order', reason: 'below_min_amount' }],
    ['BadRequest', 'binance {"code":-1111,"msg":"Parameter \'quantity\' has too much precision."}', { kind: 'invalid_order', reason: 'precision' }],
    ['InvalidOrder', 'binance {"code":-1014,"msg":"Unsupported order combination."}', { kind: 'invalid_order', reason: 'rejected' }],
    ['PermissionDenied', 'binance This symbol is not permitted for this account.', { kind: 'permission', reason: 'permission_denied' }],
    ['AccountNotEnabled', 'okx 51010', { kind: 'permission', reason: 'permission_denied' }],
    ['AccountSuspended', 'binance This action is disabled on this account.', { kind: 'permission', reason: 'account_suspended' }],
    ['AuthenticationError', 'binance {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}', { kind: 'permission', reason: 'invalid_key' }],
    ['MarketClosed', 'binance Market is closed.', { kind: 'refused' }],
    ['RestrictedLocation', 'okx 51155', { kind: 'refused' }],
    ['ExchangeError', 'binance {"code":-9999}', { kind: 'refused' }],
    ['RateLimitExceeded', 'binance -1003', { kind: 'transient', reason: 'exchange_busy', retryable: true }],
    ['DDoSProtection', 'binance 429 Too Many Requests', { kind: 'transient', reason: 'exchange_busy', retryable: true }],
    ['InvalidNonce', 'binance -1021', { kind: 'transient', reason: 'clock_skew', retryable: true }],
    ['RequestTimeout', 'binance -1007', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
    ['ExchangeNotAvailable', 'binance 503', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
    ['OnMaintenance', 'okx 50001', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
    ['NetworkError', 'fetch failed', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
    ['BadResponse', 'not JSON', { kind: 'transient', reason: 'bad_response', retryable: true }],
    ['OperationFailed', 'binance -1006 execution status unknown', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
    // Binance's maintenance, which ccxt files as a BadRequest.
    ['BadRequest', 'binance {"code":-1016,"msg":"This service is no longer available."}', { kind: 'transient', reason: 'exchange_unreachable', retryable: true }],
  ] as const)('%s (%s)', (name, message, failure) => {
    const ErrorClass = (ccxtErrors as unknown as Record<string, new (message: string) => Error>)[name]!;
    expect(classifyCcxtError(new ErrorClass(message))).toEqual(failure);
  });

  it('leaves anything else to the caller', () => {
    expect(classifyCcxtError(new TypeError('x is undefined'))).toBeUndefined();
  });
});

describe('Binance through ccxt', () => {
  const standing = () => [binance.exchangeInfo, binance.ticker, binance.account, binance.orderFilled, binance.orderQuery, binance.openOrders] as RecordedAnswer[];

  it('loads the spot markets once, with step sizes and minimums as decimal strings', async () => {
    const { client, sentTo, replay } = replayed('binance', standing());
    const markets = await client.loadMarkets();
    expect(markets).toEqual([
      { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', precision: { amount: '0.00001', price: '0.01' }, limits: { amount: { min: '0.00001', max: '9000' }, cost: { min: '5' } }, taker: '0.001' },
      { symbol: 'DOGE/USDT', base: 'DOGE', quote: 'USDT', precision: { amount: '1', price: '0.00001' }, limits: { amount: { min: '1', max: '9000000' }, cost: { min: '1' } }, taker: '0.001' },
    ]);
    expect(await client.loadMarkets()).toEqual(markets);
    // Spot only: no futures, margin or currency lists.
    expect(sentTo('GET', '/api/v3/exchangeInfo')).toHaveLength(1);
    expect(replay.requests).toHaveLength(1);
  });

  it('reads the ticker and the balance as decimal strings', async () => {
    const { client } = replayed('binance', standing());
    expect(await client.fetchTicker('BTC/USDT')).toMatchObject({
      symbol: 'BTC/USDT',
      bid: '67112',
      ask: '67112.01',
      last: '67112.01',
      change24h: '-0.611',
      quoteVolume24h: '1474055912.81277',
    });
    expect(await client.fetchBalance()).toEqual({
      free: { BTC: '0.0125', USDT: '1523.47', BNB: '0.0487312' },
      used: { BTC: '0', USDT: '120', BNB: '0' },
      total: { BTC: '0.0125', USDT: '1643.47', BNB: '0.0487312' },
    });
  });

  it('reads the 24 h change and volume of many pairs in one request (the hot-pairs list)', async () => {
    const { client, sentTo } = replayed('binance', [binance.tickers, ...standing()] as RecordedAnswer[]);
    const tickers = await client.fetchTickers(['BTC/USDT', 'DOGE/USDT']);
    expect(tickers.map(({ symbol, last, change24h, quoteVolume24h }) => ({ symbol, last, change24h, quoteVolume24h }))).toEqual([
      { symbol: 'BTC/USDT', last: '67112.01', change24h: '-0.611', quoteVolume24h: '1474055912.81277' },
      { symbol: 'DOGE/USDT', last: '0.1602', change24h: '3.972', quoteVolume24h: '297899318.4229' },
    ]);
    const asked = sentTo('GET', '/api/v3/ticker/24hr');
    expect(asked).toHaveLength(1);
    expect(JSON.parse(asked[0]!.query.get('symbols')!)).toEqual(['BTCUSDT', 'DOGEUSDT']);
  });

  it('buys by cost with quoteOrderQty and our client order id, and reports the fill exactly', async () => {
    const { client, sentTo, replay } = replayed('binance', standing());
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: BINANCE_ORDER_ID });
    const [create] = sentTo('POST', '/api/v3/order');
    const sent = new URLSearchParams(create!.body);
    expect(sent.get('newClientOrderId')).toBe(BINANCE_ORDER_ID);
    expect(sent.get('quoteOrderQty')).toBe('100');
    expect(sent.get('type')).toBe('MARKET');
    expect(sent.get('side')).toBe('BUY');
    expect(sent.has('quantity')).toBe(false);
    expect(order).toEqual({
      id: '28457381',
      clientOrderId: BINANCE_ORDER_ID,
      symbol: 'BTC/USDT',
      side: 'buy',
      status: 'closed',
      // Two fills: 0.001 at 67112.00 and 0.00049 at 67112.01.
      filled: '0.00149',
      cost: '99.9968849',
      // ccxt's cost / filled, cut at 15 significant digits instead of a binary tail.
      average: '67112.0032885906',
      fee: { currency: 'BTC', cost: '0.00000149' },
      timestamp: 1717459260123,
    });
    expect(new Big(order.cost).div(order.filled).round(10).toFixed()).toBe(order.average);
    expect(replay.unexpected).toEqual([]);
  });

  it('sends a base amount rounded down to the step', async () => {
    const { client, sentTo } = replayed('binance', standing());
    await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', amount: '0.0014999', clientOrderId: BINANCE_ORDER_ID });
    const sent = new URLSearchParams(sentTo('POST', '/api/v3/order')[0]!.body);
    expect(sent.get('quantity')).toBe('0.00149');
    expect(sent.has('quoteOrderQty')).toBe(false);
  });

  it('buys by cost from the ask where the exchange cannot spend a quote amount', async () => {
    const { client, sentTo } = replayed('binance', standing(), { withoutCostOrders: true });
    await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: BINANCE_ORDER_ID });
    expect(sentTo('GET', '/api/v3/ticker/24hr')).toHaveLength(1);
    const sent = new URLSearchParams(sentTo('POST', '/api/v3/order')[0]!.body);
    // 100 / 67112.01 = 0.0014900105..., down to the 0.00001 step.
    expect(sent.get('quantity')).toBe('0.00149');
    expect(sent.has('quoteOrderQty')).toBe(false);
  });

  it('refuses before sending what no exchange would take', async () => {
    const { client, sentTo } = replayed('binance', standing());
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'not valid!' }))).toEqual({
      kind: 'invalid_order',
      reason: 'bad_client_order_id',
    });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'sell', cost: '100', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'invalid_order',
      reason: 'bad_cost',
    });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'sell', amount: '0.000009', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'invalid_order',
      reason: 'below_min_amount',
    });
    expect(await failureOf(client.createMarketOrder({ symbol: 'XYZ/USDT', side: 'buy', cost: '10', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'invalid_order',
      reason: 'bad_symbol',
    });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '12345678.123456789', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'invalid_order',
      reason: 'precision',
    });
    expect(sentTo('POST', '/api/v3/order')).toEqual([]);
  });

  it("sends the runner's client order ids as they are", async () => {
    const { client, sentTo } = replayed('binance', standing());
    const clientOrderId = newClientOrderId();
    await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId });
    expect(new URLSearchParams(sentTo('POST', '/api/v3/order')[0]!.body).get('newClientOrderId')).toBe(clientOrderId);
  });

  it('finds an order by our client order id, and says when there is none', async () => {
    const { client, sentTo, replay } = replayed('binance', standing());
    const order = await client.fetchOrderByClientOrderId('BTC/USDT', BINANCE_ORDER_ID);
    expect(sentTo('GET', '/api/v3/order')[0]!.query.get('origClientOrderId')).toBe(BINANCE_ORDER_ID);
    // The order query carries no fills, so no fee.
    expect(order).toMatchObject({ id: '28457381', clientOrderId: BINANCE_ORDER_ID, status: 'closed', filled: '0.00149', cost: '99.9968849', fee: null });

    replay.answer(binance.exchangeInfo as RecordedAnswer, binance.orderNotFound as RecordedAnswer);
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtm1x8k2p0neverplaced')).toBeNull();
  });

  it("reads what an order's trades paid in fees when the order query leaves them out", async () => {
    const { client, sentTo, replay } = replayed('binance', [...standing(), binance.myTrades as RecordedAnswer]);
    expect(await client.fetchOrderFees('BTC/USDT', '28457381')).toEqual([{ currency: 'BTC', cost: '0.00000149' }]);
    const asked = sentTo('GET', '/api/v3/myTrades')[0]!.query;
    expect([asked.get('symbol'), asked.get('orderId')]).toEqual(['BTCUSDT', '28457381']);
    // No trades yet (the exchange has not caught up): ask again later, never count 0.
    replay.answer(binance.exchangeInfo as RecordedAnswer, { ...binance.myTrades, body: [] } as RecordedAnswer);
    await expect(client.fetchOrderFees('BTC/USDT', '28457381')).rejects.toMatchObject({ failure: { kind: 'transient' } });
  });

  it('lists open orders', async () => {
    const { client } = replayed('binance', standing());
    expect(await client.fetchOpenOrders()).toEqual([
      {
        id: '5120778121',
        clientOrderId: 'qtm1x8jz90c4e1b2a3f4d5',
        symbol: 'DOGE/USDT',
        side: 'buy',
        status: 'open',
        average: null,
        filled: '0',
        cost: '0',
        fee: null,
        timestamp: 1717459100000,
      },
    ]);
  });

  it.each([
    ['insufficient funds (-2010)', binance.insufficientBalance, { kind: 'insufficient_funds' }],
    ['a filter failure (-1013 NOTIONAL)', binance.minNotional, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a refused key (-2015)', binance.invalidKeyOrder, { kind: 'permission', reason: 'invalid_key' }],
  ])('reports %s and sends the order once', async (_, refusal, failure) => {
    const { client, sentTo } = replayed('binance', [binance.exchangeInfo, refusal] as RecordedAnswer[]);
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: BINANCE_ORDER_ID }))).toEqual(failure);
    expect(sentTo('POST', '/api/v3/order')).toHaveLength(1);
  });

  it('retries a rate-limited read with backoff', async () => {
    const { client, once, sentTo } = replayed('binance', standing());
    once(binance.rateLimitedAccount as RecordedAnswer);
    expect((await client.fetchBalance()).free.USDT).toBe('1523.47');
    expect(sentTo('GET', '/api/v3/account')).toHaveLength(2);
  });

  it('gives up on a read after three attempts, as retryable', async () => {
    const { client, once, sentTo } = replayed('binance', standing());
    once(...Array.from({ length: 3 }, () => binance.rateLimitedAccount as RecordedAnswer));
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_busy', retryable: true });
    expect(sentTo('GET', '/api/v3/account')).toHaveLength(3);
  });

  it('never retries a rate-limited order: its outcome is unknown, and reconciliation finds it', async () => {
    const { client, once, sentTo } = replayed('binance', standing());
    once(binance.rateLimitedOrder as RecordedAnswer);
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'unknown_outcome',
      clientOrderId: BINANCE_ORDER_ID,
    });
    expect(sentTo('POST', '/api/v3/order')).toHaveLength(1);
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', BINANCE_ORDER_ID)).toMatchObject({ status: 'closed', filled: '0.00149' });
  });

  it('never retries an order whose connection failed', async () => {
    const { client, replay, sentTo } = replayed('binance', standing());
    await client.loadMarkets();
    replay.failNetwork();
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'sell', amount: '0.001', clientOrderId: BINANCE_ORDER_ID }))).toEqual({
      kind: 'unknown_outcome',
      clientOrderId: BINANCE_ORDER_ID,
    });
    expect(sentTo('POST', '/api/v3/order')).toHaveLength(1);
  });

  it('loads the markets again after a failed load (ccxt would keep the failure)', async () => {
    const { client, replay, sentTo } = replayed('binance', standing());
    replay.failNetwork();
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_unreachable', retryable: true });
    expect(sentTo('GET', '/api/v3/exchangeInfo')).toHaveLength(3);
    replay.answer(...standing());
    expect((await client.fetchBalance()).total.USDT).toBe('1643.47');
  });
});

describe('OKX through ccxt', () => {
  const standing = () => [okx.instruments, okx.ticker, okx.balance, okx.orderPlaced, okx.orderQuery] as RecordedAnswer[];

  it('loads the spot instruments with lot and tick sizes as decimal strings', async () => {
    const { client, sentTo } = replayed('okx', standing());
    expect(await client.loadMarkets()).toEqual([
      { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', precision: { amount: '0.00000001', price: '0.1' }, limits: { amount: { min: '0.00001', max: '9999999999' }, cost: { min: '0' } }, taker: '0.0015' },
      { symbol: 'ETH/USDT', base: 'ETH', quote: 'USDT', precision: { amount: '0.000001', price: '0.01' }, limits: { amount: { min: '0.0001', max: '9999999999' }, cost: { min: '0' } }, taker: '0.0015' },
    ]);
    expect(sentTo('GET', '/api/v5/public/instruments').map((request) => request.query.get('instType'))).toEqual(['SPOT']);
  });

  it('reads the balance', async () => {
    const { client } = replayed('okx', standing());
    expect(await client.fetchBalance()).toEqual({
      free: { USDT: '2480.5', BTC: '0.0302' },
      used: { USDT: '20', BTC: '0' },
      total: { USDT: '2500.5', BTC: '0.0302' },
    });
  });

  it('buys by cost with clOrdId and tgtCcy=quote_ccy, then reads the fill OKX did not send back', async () => {
    const { client, sentTo, replay } = replayed('okx', standing());
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: OKX_ORDER_ID });
    const creates = sentTo('POST', '/api/v5/trade/batch-orders');
    expect(creates).toHaveLength(1);
    expect(JSON.parse(creates[0]!.body)).toEqual([
      { instId: 'BTC-USDT', side: 'buy', ordType: 'market', sz: '100', tdMode: 'cash', tgtCcy: 'quote_ccy', clOrdId: OKX_ORDER_ID },
    ]);
    expect(sentTo('GET', '/api/v5/trade/order')[0]!.query.get('clOrdId')).toBe(OKX_ORDER_ID);
    expect(order).toEqual({
      id: '1512345678901234567',
      clientOrderId: OKX_ORDER_ID,
      symbol: 'BTC/USDT',
      side: 'buy',
      status: 'closed',
      filled: '0.00149004',
      average: '67112.1',
      // What filled at its average price: ccxt gives OKX's sz (the 100 asked for) as the cost of a quote-sized market buy.
      cost: '99.999713484',
      fee: { currency: 'BTC', cost: '0.00000149' },
      timestamp: 1717459260120,
    });
    expect(replay.unexpected).toEqual([]);
  });

  it('reports insufficient funds (sCode 51008) and sends the order once', async () => {
    const { client, sentTo } = replayed('okx', [okx.instruments, okx.insufficientBalance] as RecordedAnswer[]);
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: OKX_ORDER_ID }))).toEqual({
      kind: 'insufficient_funds',
    });
    expect(sentTo('POST', '/api/v5/trade/batch-orders')).toHaveLength(1);
  });

  it('says when no order has our client order id (51603)', async () => {
    const { client } = replayed('okx', [okx.instruments, okx.orderNotFound] as RecordedAnswer[]);
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', OKX_ORDER_ID)).toBeNull();
  });
});

describe('the paper exchange refuses as a real exchange does', () => {
  it('maps its refusals to the same failures', () => {
    const paper = createPaperExchange({ market: createMarket(42), feeRate: '0.001', balances: { demo: { USDT: '1000' } } });
    const refusal = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        if (error instanceof PaperExchangeError) return fromPaperFailure(error.failure);
        throw error;
      }
      throw new Error('not refused');
    };
    const buy = (cost: string, symbol = 'BTC/USDT') => () => paper.createOrder({ accountId: 'demo', symbol, side: 'buy', type: 'market', cost, clientOrderId: 'qtpaper' });
    expect(refusal(buy('5000'))).toMatchObject({ kind: 'insufficient_funds', asset: 'USDT', available: '1000' });
    expect(refusal(buy('1'))).toEqual({ kind: 'invalid_order', reason: 'below_min_cost' });
    expect(refusal(buy('10', 'XYZ/USDT'))).toEqual({ kind: 'invalid_order', reason: 'bad_symbol' });
    expect(refusal(() => paper.fetchOrder('demo', '404'))).toEqual({ kind: 'invalid_order', reason: 'order_not_found' });
  });
});
