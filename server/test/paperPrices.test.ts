import Big from 'big.js';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createCcxtClient } from '../src/engine/venues/ccxtClient';
import { createLiveMarket } from '../src/engine/venues/paper/liveMarket';
import { createTickerFeed } from '../src/engine/venues/tickerFeed';
import orders from './fixtures/binance-orders.json';
import binanceWs from './fixtures/binance-ws.json';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer } from './recordedExchange';
import { binanceAt, startVenue, until } from './recordedStream';

/**
 * Paper accounts on a real exchange's live public market (issue: a
 * newcomer's first hour): pairs, steps and best prices read with no keys
 * through ccxt's Binance class fed recorded answers; when the exchange cannot
 * be reached the account says so and trades on the simulator meanwhile.
 */
const publicAnswers = [orders.exchangeInfo, orders.tickers] as RecordedAnswer[];
const log = Fastify({ logger: false }).log;

describe('a live public market', () => {
  it('reads pairs, steps and best prices with no keys, turns not-live when prices stop, and live again when they come back', async () => {
    const replay = recordedExchange();
    replay.answer(...publicAnswers);
    let clock = 1_717_459_260_000;
    const market = createLiveMarket({ exchangeId: 'binance', client: createCcxtClient({ exchangeId: 'binance', createExchange: replay.factory, retryDelayMs: 1 }), log, now: () => clock });
    market.want(['BTC/USDT']);
    expect(await market.warm()).toBe(true);
    expect(market.status()).toEqual({ source: 'binance', live: true, fallbackSince: null });
    const best = market.feed.bestPrices('BTC/USDT');
    expect(new Big(best.bid).eq('67112')).toBe(true);
    expect(new Big(best.ask).eq('67112.01')).toBe(true);
    const spec = market.feed.market('BTC/USDT')!;
    expect(new Big(spec.tickSize).gt(0) && new Big(spec.amountStep).gt(0)).toBe(true);
    expect(new Big(spec.minCost).eq('5')).toBe(true);
    // Public calls only: no key, no signature.
    expect(replay.requests.length).toBeGreaterThan(0);
    for (const request of replay.requests) {
      expect(Object.keys(request.headers).map((h) => h.toLowerCase())).not.toContain('x-mbx-apikey');
      expect(request.url).not.toContain('signature=');
    }
    expect(replay.unexpected).toEqual([]);

    // A failed refresh within the staleness window keeps the last prices.
    replay.failNetwork();
    clock += 5_000;
    await market.refresh();
    expect(market.status().live).toBe(true);
    // Past it, the market is not live, says since when, and gives no price.
    clock += 11_000;
    await market.refresh();
    expect(market.status()).toEqual({ source: 'binance', live: false, fallbackSince: new Date(clock).toISOString() });
    expect(() => market.feed.bestPrices('BTC/USDT')).toThrow(RangeError);

    replay.answer(...publicAnswers);
    clock += 1_000;
    await market.refresh();
    expect(market.status()).toEqual({ source: 'binance', live: true, fallbackSince: null });
  });

  it("prefers the exchange's websocket ticker stream, asks REST only for pairs whose stream is silent", async () => {
    const replay = recordedExchange();
    replay.answer(...publicAnswers);
    const venue = await startVenue();
    let clock = 1_717_459_260_000;
    const feed = createTickerFeed({ createExchange: binanceAt(venue, []), now: () => clock });
    try {
      const client = createCcxtClient({ exchangeId: 'binance', createExchange: replay.factory, retryDelayMs: 1 });
      const market = createLiveMarket({ exchangeId: 'binance', client, log, stream: feed, now: () => clock });
      const restTickers = () => replay.requests.filter((r) => new URL(r.url).pathname === '/api/v3/ticker/24hr').length;
      market.want(['BTC/USDT']);
      // No streamed quote yet: the first prices come from REST, and the stream is opened.
      expect(await market.warm()).toBe(true);
      expect(market.feed.bestPrices('BTC/USDT')).toMatchObject({ bid: '67112', ask: '67112.01' });
      await until(() => venue.subscriptions.length > 0);
      expect(venue.subscriptions).toEqual(['btcusdt@ticker']);

      venue.send(binanceWs.tickers[1]);
      await until(() => feed.quote('binance', 'BTC/USDT') !== null);
      expect(market.feed.bestPrices('BTC/USDT')).toEqual({ last: '67126.15', bid: '67126.14', ask: '67126.15' });
      expect(market.feed.ticker('BTC/USDT')).toMatchObject({ bid: '67126.14', ask: '67126.15', timestamp: 1717459262000, percentage: '-0.59' });
      // While the stream flows, refreshing asks no REST tickers, and the market stays live.
      const asked = restTickers();
      clock += 10_000;
      await market.refresh();
      expect(restTickers()).toBe(asked);
      expect(market.status()).toEqual({ source: 'binance', live: true, fallbackSince: null });

      // A silent stream (its last quote older than the limit) falls back to REST.
      clock += 5_001;
      await market.refresh();
      expect(restTickers()).toBe(asked + 1);
      expect(market.feed.bestPrices('BTC/USDT')).toMatchObject({ bid: '67112', ask: '67112.01' });
      expect(market.status().live).toBe(true);
      expect(replay.unexpected).toEqual([]);
    } finally {
      await feed.close();
      await venue.close();
    }
  });

  it('is not live when its markets cannot load, from the first attempt', async () => {
    const replay = recordedExchange();
    replay.failNetwork();
    const clock = 1_717_459_260_000;
    const market = createLiveMarket({ exchangeId: 'binance', client: createCcxtClient({ exchangeId: 'binance', createExchange: replay.factory, retryDelayMs: 1 }), log, now: () => clock });
    expect(await market.warm()).toBe(false);
    expect(market.status()).toEqual({ source: 'binance', live: false, fallbackSince: new Date(clock).toISOString() });
    expect(market.feed.markets).toEqual([]);
  });
});

describe.each(BACKENDS)('paper accounts on live prices (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  const newcomer = async () => {
    // Not activated: paper trading is for everyone.
    const { accessToken } = await registerUser(server, { email: 'newcomer@example.com' });
    return (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: accessToken });
  };
  const startTask = async (call: Awaited<ReturnType<typeof newcomer>>, exchangeId: string) => {
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { cycleCount: 1 }));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;
    await server.app.engine.tick();
    await server.app.engine.idle();
    await server.app.engine.flush();
    return taskId;
  };

  it("trades a newcomer's paper task at the exchange's recorded ask, and labels its prices live", async () => {
    const replay = recordedExchange();
    replay.answer(...publicAnswers);
    server = await startServer(backend, {}, { publicExchangeFactory: replay.factory });
    const call = await newcomer();
    const added = await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper on Binance', priceSource: 'binance' });
    expect(added.body.code).toBe(0);
    const exchangeId = added.body.data.id as string;
    const list = await call('GET', '/api/exchange/list');
    expect(list.body.data.list.find((a: { id: string }) => a.id === exchangeId).prices).toEqual({ source: 'binance', live: true, fallbackSince: null });

    const taskId = await startTask(call, exchangeId);
    const [buy] = await server.db.selectFrom('orders').selectAll().where('task_id', '=', taskId).execute();
    expect(buy).toMatchObject({ side: 'buy', status: 'closed' });
    // A market buy fills at the recorded best ask.
    expect(new Big(buy!.price!).eq('67112.01')).toBe(true);
    const detail = await call('GET', `/api/trade/detail/${taskId}`);
    expect(detail.body.data.prices).toEqual({ source: 'binance', live: true });
    expect(replay.unexpected).toEqual([]);
    // No keys were ever sent: the paper account has none.
    for (const request of replay.requests) expect(request.url).not.toContain('signature=');
  });

  it('trades on the simulator, and says so, while the exchange cannot be reached', async () => {
    server = await startServer(backend); // the harness's public exchanges are unreachable
    const call = await newcomer();
    const added = await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper', priceSource: 'binance' });
    expect(added.body.code).toBe(0);
    const exchangeId = added.body.data.id as string;
    const prices = (await call('GET', '/api/exchange/list')).body.data.list[0].prices;
    expect(prices).toMatchObject({ source: 'binance', live: false });
    expect(Date.parse(prices.fallbackSince)).not.toBeNaN();

    const taskId = await startTask(call, exchangeId);
    const [buy] = await server.db.selectFrom('orders').selectAll().where('task_id', '=', taskId).execute();
    expect(buy).toMatchObject({ side: 'buy', status: 'closed' });
    // The simulator's price, not a made-up live one.
    const simulated = server.app.engine.market.bestPrices('BTC/USDT').ask;
    expect(new Big(buy!.price!).eq(simulated)).toBe(true);
    expect((await call('GET', `/api/trade/detail/${taskId}`)).body.data.prices).toEqual({ source: 'binance', live: false });
  });

  it('answers candles of a simulator task, and refuses a bad timeframe or limit with the field named', async () => {
    server = await startServer(backend);
    const call = await newcomer();
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Sim', priceSource: 'simulator' })).body.data.id as string;
    const taskId = await startTask(call, exchangeId);
    for (let i = 0; i < 3; i += 1) await server.app.engine.tick();
    await server.app.engine.flush();
    const answer = await call('GET', `/api/trade/ohlcv?taskId=${taskId}&timeframe=1m&limit=50`);
    expect(answer.body.code).toBe(0);
    expect(answer.body.data).toMatchObject({ symbol: 'BTC/USDT', timeframe: '1m', prices: { source: 'simulator', live: false } });
    const candles = answer.body.data.candles as { time: number; open: string; high: string; low: string; close: string }[];
    expect(candles.length).toBeGreaterThan(0);
    for (const candle of candles) {
      expect(new Big(candle.high).gte(candle.low)).toBe(true);
      expect(new Big(candle.high).gte(candle.open) && new Big(candle.high).gte(candle.close)).toBe(true);
      expect(candle.time % 60_000).toBe(0);
    }
    expect(candles.map((c) => c.time)).toEqual([...candles.map((c) => c.time)].sort((a, b) => a - b));

    const badTimeframe = await call('GET', `/api/trade/ohlcv?taskId=${taskId}&timeframe=7m`);
    expect(badTimeframe.status).toBe(200);
    expect(badTimeframe.body.code).not.toBe(0);
    expect(badTimeframe.body.data).toMatchObject({ field: 'timeframe' });
    const badLimit = await call('GET', `/api/trade/ohlcv?taskId=${taskId}&limit=501`);
    expect(badLimit.body.data).toMatchObject({ field: 'limit' });
  });
});
