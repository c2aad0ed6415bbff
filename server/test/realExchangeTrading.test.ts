import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeFactory } from '../src/engine/venues/exchangeAccess';
import binance from './fixtures/binance.json';
import orders from './fixtures/binance-orders.json';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer, type Replay } from './recordedExchange';
import { binanceAt, startVenue, until } from './recordedStream';
import { createTickerFeed } from '../src/engine/venues/tickerFeed';
import binanceWs from './fixtures/binance-ws.json';

/**
 * A task on a real (Binance) account trades through the ccxt client, fed
 * recorded Binance answers: the intent is stored before the order is sent,
 * the fill is applied after, and an order whose answer was lost is found
 * again through the order query instead of being sent twice.
 */

const BINANCE_KEY = {
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
};


type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** How the exchange answers an order creation. */
type CreateAnswer = 'filled' | 'network_failure' | 'insufficient_funds';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * The recorded exchange, with the order answers carrying the client order id
 * the engine sent (it is new for every order), and a log of every order
 * creation and order query.
 */
const binanceExchange = () => {
  const replay: Replay = recordedExchange();
  const state = {
    create: 'filled' as CreateAnswer,
    created: [] as (string | null)[],
    queried: [] as (string | null)[],
    /** The commission asset of the fills (Binance takes it in BNB when the account pays fees with BNB). */
    feeAsset: 'BTC',
  };
  /** The API key of every ccxt instance made, in order (key checks and the engine's clients). */
  const builtWith: string[] = [];
  const factory: ExchangeFactory = (id, settings) => {
    builtWith.push(settings.apiKey ?? '');
    const exchange = replay.factory(id, settings);
    const recorded = exchange.fetchImplementation as Fetch;
    exchange.fetchImplementation = (async (url, init) => {
      const method = (init.method ?? 'GET').toUpperCase();
      const { pathname, searchParams } = new URL(url);
      const body = new URLSearchParams(typeof init.body === 'string' ? init.body : '');
      const param = (name: string) => searchParams.get(name) ?? body.get(name);
      if (pathname === '/api/v3/order' && method === 'POST') {
        const clientOrderId = param('newClientOrderId');
        state.created.push(clientOrderId);
        if (state.create === 'network_failure') throw new TypeError('fetch failed');
        if (state.create === 'insufficient_funds') return json(orders.insufficientBalance.status, orders.insufficientBalance.body);
        const fills =
          state.feeAsset === 'BTC'
            ? orders.orderFilled.body.fills
            : orders.orderFilled.body.fills.map((fill) => ({ ...fill, commission: '0.00004000', commissionAsset: state.feeAsset }));
        return json(200, { ...orders.orderFilled.body, fills, clientOrderId });
      }
      if (pathname === '/api/v3/ticker/24hr' && param('symbols')) {
        // Binance answers a list of symbols with a list of their tickers.
        const wanted = JSON.parse(param('symbols')!) as string[];
        replay.requests.push({ method, url, headers: { ...(init.headers as Record<string, string>) } });
        return json(200, orders.tickers.body.filter((ticker) => wanted.includes(ticker.symbol)));
      }
      if (pathname === '/api/v3/ticker/24hr' && param('symbol') === 'BNBUSDT') {
        return json(200, { ...orders.ticker.body, symbol: 'BNBUSDT', lastPrice: '600.00000000', bidPrice: '599.90000000', askPrice: '600.00000000' });
      }
      if (pathname === '/api/v3/order' && method === 'GET') {
        const clientOrderId = param('origClientOrderId');
        state.queried.push(clientOrderId);
        return json(200, { ...orders.orderQuery.body, clientOrderId });
      }
      return recorded(url, init);
    }) satisfies Fetch;
    return exchange;
  };
  return { replay, factory, state, builtWith };
};

describe.each(BACKENDS)('trading on a real exchange account (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  let exchange: ReturnType<typeof binanceExchange>;
  let accountId: string;
  let strategyId: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  /** A tick, and the real account's lane it started (real exchanges trade off the tick). */
  const tick = async () => {
    await server.app.engine.tick();
    await server.app.engine.idle();
  };
  const orderRows = () => server.db.selectFrom('orders').selectAll().orderBy('created_at').execute();
  const createTask = async () => {
    const created = await call('POST', '/api/trade/add', taskPayload(accountId, strategyId));
    expect(created.body.code).toBe(0);
    return created.body.data[0].id as string;
  };

  beforeEach(async () => {
    exchange = binanceExchange();
    server = await startServer(backend, {}, { exchangeFactory: exchange.factory });
    token = (await registerUser(server, { email: 'trader@example.com', activated: true })).accessToken;
    // The key check at binding is recorded too.
    exchange.replay.answer(binance.account as RecordedAnswer, binance.apiRestrictionsTradeOnly as RecordedAnswer);
    const added = await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...BINANCE_KEY });
    expect(added.body.code).toBe(0);
    accountId = added.body.data.id;
    exchange.replay.answer(...([orders.exchangeInfo, orders.ticker, orders.account, orders.openOrders, orders.myTrades] as RecordedAnswer[]));
    strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
  });
  afterEach(async () => server.close());

  it('reads pairs, prices and the free balance from the exchange', async () => {
    const pairs = await call('GET', `/api/trade/pairs?exchangeId=${accountId}&q=btc`);
    expect(pairs.body.data.list).toEqual([expect.objectContaining({ id: 'BTC/USDT', base: 'BTC', quote: 'USDT', price: '67112.01', minCost: '5' })]);
    const prices = await call('POST', '/api/trade/coin-price', { exchangeId: accountId, coins: ['BTC', 'NOPE'] });
    expect(prices.body.data).toEqual({ BTC: '67112.01' });
    // A full cycle needs more than the 1523.47 USDT free on the account.
    const tooBig = await call('POST', '/api/trade/add', {
      exchangeId: accountId,
      coinIdList: ['BTC/USDT'],
      cycleCount: 1,
      firstOrderAmount: '1000',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId,
    });
    expect(tooBig.body.code).toBe(11003);
    expect(tooBig.body.data).toMatchObject({ available: '1523.47' });
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it("answers the account's free USDT from the exchange, and unknown (null) when the exchange cannot be asked", async () => {
    const balance = () => call('GET', `/api/exchange/balance/${accountId}`);
    // Binance's account answer: 1523.47 USDT free, 120 locked in an order.
    expect((await balance()).body).toMatchObject({ code: 0, data: { id: accountId, asset: 'USDT', free: '1523.47' } });
    expect(exchange.replay.requests.some((r) => new URL(r.url).pathname === '/api/v3/account')).toBe(true);
    exchange.replay.failNetwork();
    expect((await balance()).body).toMatchObject({ code: 0, data: { id: accountId, asset: 'USDT', free: null } });
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('ranks hot pairs by the 24 h volume or change the exchange reports, from one tickers request', async () => {
    exchange.replay.answer(...([orders.exchangeInfo, orders.tickers] as RecordedAnswer[]));
    const byVolume = await call('GET', `/api/trade/hot-pairs?exchangeId=${accountId}&sort=volume&limit=5`);
    expect(byVolume.body.data.map((p: { id: string; quoteVolume24h: string }) => [p.id, p.quoteVolume24h])).toEqual([
      ['BTC/USDT', '1474055912.81277'],
      ['DOGE/USDT', '297899318.4229'],
    ]);
    const byChange = await call('GET', `/api/trade/hot-pairs?exchangeId=${accountId}&sort=change&limit=1`);
    expect(byChange.body.data).toEqual([expect.objectContaining({ id: 'DOGE/USDT', change24h: '3.972', price: '0.1602' })]);
    expect(exchange.replay.requests.filter((r) => new URL(r.url).pathname === '/api/v3/ticker/24hr')).toHaveLength(2);
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('builds the client again from the new keys after they are edited', async () => {
    await createTask();
    await tick();
    expect(exchange.state.created).toHaveLength(1);
    const newKey = 'Q2dsY8vYyWm3H8cGx1Yk0l3mN5pR7tV9xB1zD3fH5jK7mN9pR1tV3xZ5bD7fH9j2';
    exchange.replay.answer(binance.account as RecordedAnswer, binance.apiRestrictionsTradeOnly as RecordedAnswer);
    const edited = await call('POST', '/api/exchange/edit', { id: accountId, apiKey: newKey, secret: BINANCE_KEY.secret });
    expect(edited.body.code).toBe(0);
    const built = exchange.builtWith.length;
    exchange.replay.answer(...([orders.exchangeInfo, orders.ticker, orders.account, orders.openOrders, orders.myTrades] as RecordedAnswer[]));
    await tick();
    // The engine's next use of the account built a new ccxt instance, with the new key.
    expect(exchange.builtWith.slice(built)).toEqual([newKey]);
  });

  it('prices its tasks from the shared websocket stream once it flows, and from REST tickers until then', async () => {
    const venue = await startVenue();
    await server.close();
    exchange = binanceExchange();
    const feed = createTickerFeed({ createExchange: binanceAt(venue, []) });
    server = await startServer(backend, {}, { exchangeFactory: exchange.factory, tickerFeed: feed });
    try {
      token = (await registerUser(server, { email: 'streamer@example.com', activated: true })).accessToken;
      exchange.replay.answer(binance.account as RecordedAnswer, binance.apiRestrictionsTradeOnly as RecordedAnswer);
      accountId = (await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...BINANCE_KEY })).body.data.id;
      exchange.replay.answer(...([orders.exchangeInfo, orders.ticker, orders.account, orders.openOrders, orders.myTrades] as RecordedAnswer[]));
      strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
      await createTask();
      const restTickers = () => exchange.replay.requests.filter((r) => new URL(r.url).pathname === '/api/v3/ticker/24hr').length;

      // No streamed price yet: this tick asks the REST ticker, and the stream is opened.
      let asked = restTickers();
      await tick();
      expect(restTickers()).toBe(asked + 1);
      await until(() => venue.subscriptions.length > 0);
      expect(venue.subscriptions).toEqual(['btcusdt@ticker']);

      venue.send(binanceWs.tickers[1]);
      await until(() => feed.price('binance', 'BTC/USDT') === '67126.15');
      // The next tick takes the streamed price: no REST ticker is asked.
      asked = restTickers();
      await tick();
      expect(server.app.engine.lastPrice(accountId, 'BTC/USDT')).toBe('67126.15');
      expect(restTickers()).toBe(asked);
    } finally {
      await server.close();
      await venue.close();
      server = await startServer(backend);
    }
  });

  it('counts a fee paid in BNB at its price in USDT: the quantity stays whole, the cost carries the fee', async () => {
    // Binance's markets with BNB/USDT as well, so the fee asset has a price.
    const dogeMarket = orders.exchangeInfo.body.symbols.find((m) => m.symbol === 'DOGEUSDT')!;
    const withBnb = {
      ...orders.exchangeInfo,
      body: { ...orders.exchangeInfo.body, symbols: [...orders.exchangeInfo.body.symbols, { ...dogeMarket, symbol: 'BNBUSDT', baseAsset: 'BNB' }] },
    };
    exchange.replay.answer(...([withBnb, orders.ticker, orders.account, orders.openOrders] as RecordedAnswer[]));
    exchange.state.feeAsset = 'BNB';
    const taskId = await createTask();
    await tick();
    const [order] = await orderRows();
    expect(order).toMatchObject({ status: 'closed', fee_currency: 'BNB' });
    expect(new Big(order!.fee).eq('0.00008')).toBe(true);
    const state = server.app.engine.tasks.get(taskId)!.state;
    // Nothing comes off the BTC bought; 0.00008 BNB at 600 USDT adds 0.048 USDT to the cost.
    expect(new Big(state.quantity).eq('0.00149')).toBe(true);
    expect(new Big(state.cost).eq(new Big(orders.orderFilled.body.cummulativeQuoteQty).plus('0.048'))).toBe(true);
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('refuses a task on a real exchange before activation (11001, reason real_exchange) and stores nothing', async () => {
    await server.db.updateTable('users').set({ activated: false }).execute();
    const refused = await call('POST', '/api/trade/add', taskPayload(accountId, strategyId));
    expect(refused.body).toMatchObject({ code: 11001, data: { reason: 'real_exchange' } });
    expect(await server.db.selectFrom('trade_tasks').select('id').execute()).toEqual([]);
  });

  it('sends the first order once with our client order id and applies its fill', async () => {
    const taskId = await createTask();
    const before = exchange.replay.requests.length;
    await tick();
    // One price request for the tick.
    expect(exchange.replay.requests.slice(before).filter((r) => new URL(r.url).pathname === '/api/v3/ticker/24hr')).toHaveLength(1);

    const rows = await orderRows();
    expect(rows).toHaveLength(1);
    const [order] = rows;
    expect(exchange.state.created).toEqual([order!.client_order_id]);
    expect(order).toMatchObject({ task_id: taskId, side: 'buy', status: 'closed', exchange_order_id: '28457381', fee_currency: 'BTC' });
    expect(new Big(order!.filled).eq('0.00149')).toBe(true);
    expect(new Big(order!.fee).eq('0.00000149')).toBe(true);
    const state = server.app.engine.tasks.get(taskId)!.state;
    expect(state.pendingOrder).toBe(false);
    expect(new Big(state.quantity).gt(0)).toBe(true);
    expect(new Big(state.quantity).eq('0.00148851')).toBe(true);
    const events = await server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).execute();
    expect(events.map((e) => e.kind)).toContain('cycle_started');
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('leaves an intent when the answer is lost and reconciles it on the next tick without sending it again', async () => {
    const taskId = await createTask();
    exchange.state.create = 'network_failure';
    await tick();

    let rows = await orderRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('intent');
    expect(exchange.state.created).toEqual([rows[0]!.client_order_id]);
    expect(server.app.engine.tasks.get(taskId)!.state.pendingOrder).toBe(true);

    exchange.state.create = 'filled';
    await tick();

    rows = await orderRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'closed', exchange_order_id: '28457381' });
    // One creation only; the outcome came from the order query.
    expect(exchange.state.created).toHaveLength(1);
    expect(exchange.state.queried).toEqual([rows[0]!.client_order_id]);
    const state = server.app.engine.tasks.get(taskId)!.state;
    expect(state.pendingOrder).toBe(false);
    // Binance's order query carries no fee: the order's trades say what it paid, and the position is net of it.
    expect(exchange.replay.requests.filter((r) => new URL(r.url).pathname === '/api/v3/myTrades')).toHaveLength(1);
    expect(new URL(exchange.replay.requests.find((r) => new URL(r.url).pathname === '/api/v3/myTrades')!.url).searchParams.get('orderId')).toBe('28457381');
    expect(new Big(state.quantity).eq('0.00148851')).toBe(true);
    expect(rows[0]).toMatchObject({ fee_currency: 'BTC' });
    expect(new Big(rows[0]!.fee).eq('0.00000149')).toBe(true);
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('marks a refused order failed and pauses the task', async () => {
    const taskId = await createTask();
    exchange.state.create = 'insufficient_funds';
    await tick();

    const rows = await orderRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', error: 'insufficient_funds' });
    const task = server.app.engine.tasks.get(taskId)!;
    expect(task.state.pendingOrder).toBe(false);
    expect(task.retryAfter).toBeGreaterThan(server.app.engine.market.now());
    const events = await server.db.selectFrom('task_events').select(['kind', 'data']).where('task_id', '=', taskId).where('kind', '=', 'error').execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ reason: 'insufficient_funds', side: 'buy' });
    // Paused: the next tick sends nothing.
    await tick();
    expect(exchange.state.created).toHaveLength(1);
  });
});
