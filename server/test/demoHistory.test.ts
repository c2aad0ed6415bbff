import Big from 'big.js';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEE_RATE } from '../../src/api/strategy';
import { runBacktest } from '../src/backtest/run';
import { candleInterval, type Candle } from '../src/engine/core/candles';
import { PAPER_MARKETS } from '../src/engine/venues/paper/market';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { DEMO_BOTS, DEMO_HISTORY_MINUTES, DEMO_SYMBOL, readDemoHistory, seedDemoBots } from '../src/demo/history';
import { BACKENDS, startServer, type TestServer } from './harness';

/**
 * The demo account's bots (README "Run"): on first start they get a history
 * the engine itself booked over the bundled BTC minutes, ending now, on the
 * simulator's chart, and they go on trading live.
 */
describe.each(BACKENDS)("the demo account's bots and their history (%s)", (backend) => {
  let server: TestServer;
  let seeded: Awaited<ReturnType<typeof seedDemoBots>>;
  let candles: Candle[];
  let startedAt: number;
  let demoId: string;
  const market = PAPER_MARKETS.find((m) => m.symbol === DEMO_SYMBOL)!;
  const log = Fastify({ logger: { level: 'silent' } }).log;
  const seedOptions = () => ({ log, paperStartUsdt: '10000', feeRate: DEFAULT_FEE_RATE, seed: 42, accountName: 'Demo', now: startedAt });

  beforeAll(async () => {
    server = await startServer(backend);
    await ensureDemoAccount(server.db, server.config.scryptCost);
    demoId = (await server.db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow()).id;
    startedAt = Date.now();
    candles = readDemoHistory(startedAt);
    seeded = await seedDemoBots(server.db, seedOptions());
  });
  afterAll(async () => server?.close());

  const tasks = () => server.db.selectFrom('trade_tasks').selectAll().where('user_id', '=', demoId).orderBy('first_order_amount', 'desc').execute();

  it('lays the bundled history out to end at the start, on the paper market price', () => {
    expect(candles).toHaveLength(DEMO_HISTORY_MINUTES);
    const interval = candleInterval(candles);
    expect(interval).toBe(60_000);
    const end = candles.at(-1)!.time + interval;
    expect(end).toBeLessThanOrEqual(startedAt);
    expect(startedAt - end).toBeLessThan(interval);
    expect(candles.at(-1)!.close).toBe(new Big(market.startPrice).toFixed());
    for (const candle of candles) expect(new Big(candle.low).lte(candle.high)).toBe(true);
  });

  it('gives the demo a paper account and bots whose cycles closed with a profit', async () => {
    expect(seeded).toMatchObject({ tasks: DEMO_BOTS.length });
    const rows = await tasks();
    expect(rows).toHaveLength(DEMO_BOTS.length);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'active', running: true, symbol: DEMO_SYMBOL });
      expect(new Date(row.created_at).getTime()).toBe(candles[0]!.time);
      const cycles = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', row.id).execute();
      expect(cycles.length).toBeGreaterThan(0);
      const profit = cycles.reduce((sum, c) => sum.plus(c.realized_profit), new Big(0));
      expect(profit.gt(0)).toBe(true);
    }
    expect(seeded!.ms).toBeGreaterThan(0);
  });

  it('books exactly what a backtest of the same candles and template books', async () => {
    const rows = await tasks();
    for (const [i, row] of rows.entries()) {
      const bot = DEMO_BOTS.find((b) => new Big(b.firstOrderAmount).eq(row.first_order_amount))!;
      const orders = await server.db.selectFrom('orders').selectAll().where('task_id', '=', row.id).orderBy('created_at').orderBy('id').execute();
      // The engine decides from the first candle it plays: the backtest starts there too.
      const first = candles.findIndex((c) => c.time + 60_000 === new Date(orders[0]!.created_at).getTime());
      expect(first, `bot ${i}`).toBeGreaterThanOrEqual(0);
      const backtest = runBacktest({
        candles: candles.slice(first),
        interval: 60_000,
        symbol: DEMO_SYMBOL,
        settings: bot.strategy,
        firstOrderAmount: bot.firstOrderAmount,
        firstOrderMultiple: false,
        cycleCount: 9999,
        market: { feeRate: DEFAULT_FEE_RATE, feeAsset: 'received', amountStep: market.amountStep, minAmount: market.minAmount, minCost: market.minCost },
        tickSize: market.tickSize,
        fill: 'close',
        detail: true,
      });
      const cycles = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', row.id).orderBy('cycle').execute();
      expect(cycles.map((c) => ({ cycle: c.cycle, closedAt: new Date(c.closed_at).getTime(), levelsFilled: c.levels_filled, profit: new Big(c.realized_profit).toFixed(), buyCost: new Big(c.buy_cost).toFixed() }))).toEqual(
        backtest.cycles.map((c) => ({ cycle: c.cycle, closedAt: c.closedAt, levelsFilled: c.levelsFilled, profit: new Big(c.profit).toFixed(), buyCost: new Big(c.buyCost).toFixed() })),
      );
      expect(orders.filter((o) => o.status === 'closed').map((o) => ({ time: new Date(o.created_at).getTime(), side: o.side, price: new Big(o.price!).toFixed() }))).toEqual(
        backtest.trades.map((t) => ({ time: t.time, side: t.side, price: new Big(t.price).toFixed() })),
      );
    }
  });

  it('stamps every fill with its candle, and the chart history holds those candles', async () => {
    const stored = await server.db.selectFrom('paper_candles').select(['minute', 'close']).where('symbol', '=', DEMO_SYMBOL).execute();
    const closes = new Map(stored.map((c) => [Number(c.minute), new Big(c.close).toFixed()]));
    const orders = await server.db.selectFrom('orders').select(['created_at', 'price']).where('user_id', '=', demoId).where('status', '=', 'closed').execute();
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      const time = new Date(order.created_at).getTime();
      expect(time).toBeLessThanOrEqual(startedAt);
      expect(time).toBeGreaterThan(startedAt - DEMO_HISTORY_MINUTES * 60_000 - 60_000);
      // Filled at the close of the minute that ended then: that minute is on the chart.
      expect(closes.get(time - 60_000)).toBe(new Big(order.price!).toFixed());
    }
  });

  it('shows the visitor closed cycles, profit, a profit curve and fills over the API', async () => {
    const login = await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const token = login.body.data.accessToken as string;
    const list = (await server.call('GET', '/api/trade/list?page=1&pageSize=20', undefined, { token })).body.data.list as { id: string; cyclesDone: number }[];
    expect(list).toHaveLength(DEMO_BOTS.length);
    for (const task of list) {
      expect(task.cyclesDone).toBeGreaterThan(0);
      const returns = (await server.call('GET', `/api/trade/returns?taskId=${task.id}`, undefined, { token })).body.data;
      expect(new Big(returns.realizedProfit).gt(0)).toBe(true);
      expect(returns.cyclesClosed).toBe(task.cyclesDone);
      expect(returns.curve.length).toBeGreaterThan(0);
      expect(returns.apr).not.toBeNull();
      const chart = (await server.call('GET', `/api/trade/ohlcv?taskId=${task.id}&timeframe=15m&limit=200`, undefined, { token })).body.data;
      expect(chart.candles.length).toBeGreaterThanOrEqual((DEMO_HISTORY_MINUTES / 15) - 1);
    }
  });

  it('seeds only once', async () => {
    const count = async () => Number((await server.db.selectFrom('orders').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(await seedDemoBots(server.db, seedOptions())).toBeNull();
    expect(await count()).toBe(before);
    expect(await tasks()).toHaveLength(DEMO_BOTS.length);
  });

  it('goes on trading live on the paper market', async () => {
    const engine = server.app.engine;
    for (const row of await tasks()) await engine.reload(row.id);
    for (const row of await tasks()) expect(engine.drives(row.id)).toBe(true);
    await engine.tick();
    for (const row of await tasks()) expect(row.status).toBe('active');
  });
});
