import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candleInterval, parseCandlesCsv } from '../src/engine/core/candles';
import { baseOf, quoteOf } from '../src/engine/core/fills';
import { BACKENDS, adjustBalance, registerUser, startServer, taskPayload, type TestServer } from './harness';

/** The first day and a half of the recorded BTC/USDT minutes: enough for a tight ladder to close real cycles. */
const CANDLES = parseCandlesCsv(readFileSync(join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8')).slice(0, 2000);

const tight = {
  name: 'Tight',
  levels: [
    { dropPercent: '0.3', multiple: '1' },
    { dropPercent: '0.8', multiple: '2' },
    { dropPercent: '1.5', multiple: '3' },
  ],
  takeProfitPercent: '0.4',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

/** What the task's orders changed, valued at a price: quote received - quote spent + base held x price. */
const valueChange = async (server: TestServer, taskId: string, price: string) => {
  const orders = await server.db.selectFrom('orders').selectAll().where('task_id', '=', taskId).where('status', '=', 'closed').execute();
  let quote = new Big(0);
  let base = new Big(0);
  for (const order of orders) {
    const feeInBase = order.fee_currency === baseOf(order.symbol) ? new Big(order.fee) : new Big(0);
    const feeInQuote = order.fee_currency === quoteOf(order.symbol) ? new Big(order.fee) : new Big(0);
    if (order.side === 'buy') {
      quote = quote.minus(order.cost).minus(feeInQuote);
      base = base.plus(order.filled).minus(feeInBase);
    } else {
      quote = quote.plus(order.cost).minus(feeInQuote);
      base = base.minus(order.filled).minus(feeInBase);
    }
  }
  return { change: quote.plus(base.times(price)), orders: orders.length };
};

describe.each(BACKENDS)('task returns over a replay (%s)', (backend) => {
  let server: TestServer;
  let me: Awaited<ReturnType<typeof registerUser>>;
  let taskId: string;
  let exchangeId: string;
  const get = (path: string, token = me.accessToken) => server.call('GET', path, undefined, { token });

  beforeAll(async () => {
    server = await startServer(backend, { paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles: CANDLES, interval: candleInterval(CANDLES) } });
    me = await registerUser(server, { email: 'returns@example.com', activated: true });
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: me.accessToken });
    exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', tight)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { firstOrderAmount: '50' }));
    expect(created.body.code).toBe(0);
    taskId = created.body.data[0].id;
    await adjustBalance(server, me.user.id, 'USDT', '123.45');
    for (let i = 0; i < CANDLES.length; i += 1) await server.app.engine.tick();
  }, 600_000);
  afterAll(async () => server?.close());

  it('sums what the cycles booked, and realized + floating is what the orders changed', async () => {
    const answer = (await get(`/api/trade/returns?taskId=${taskId}`)).body;
    expect(answer.code).toBe(0);
    const r = answer.data;
    const cycles = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', taskId).execute();
    expect(cycles.length).toBeGreaterThan(3);
    expect(r.cyclesClosed).toBe(cycles.length);
    const booked = cycles.reduce((sum, c) => sum.plus(c.realized_profit), new Big(0));
    expect(r.realizedProfit).toBe(booked.toFixed());
    expect(new Big(r.totalProfit).eq(new Big(r.realizedProfit).plus(r.floatingProfit))).toBe(true);
    // The invariant: realized + floating = the change in value of everything the task's orders moved.
    const { change } = await valueChange(server, taskId, r.lastPrice);
    expect(new Big(r.totalProfit).minus(change).abs().lte('0.00000001')).toBe(true);
    // Max invested: the biggest cycle (or the open position); ROI has the sign of the profit.
    const peak = cycles.reduce((max, c) => { const funds = new Big(c.buy_cost).plus(c.remainder_cost); return funds.gt(max) ? funds : max; }, new Big(0));
    expect(new Big(r.maxInvested).gte(peak)).toBe(true);
    expect(new Big(r.maxInvested).gte(r.invested)).toBe(true);
    expect(Math.sign(Number(r.roi))).toBe(new Big(r.totalProfit).cmp(0));
    expect(new Big(r.roi).minus(new Big(r.totalProfit).div(r.maxInvested).times(100)).abs().lte('0.00005')).toBe(true);
    // The task is seconds old in wall time: too young to annualize.
    expect(r.apr).toBeNull();
    expect(r.runSeconds).toBeGreaterThanOrEqual(0);
    expect(r.curve.at(-1).profit).toBe(booked.toFixed());
    console.info(`returns replay (${backend}): ${cycles.length} cycles, realized ${r.realizedProfit}, floating ${r.floatingProfit}, max invested ${r.maxInvested}, ROI ${r.roi} %`);
  });

  it('pages the cycles newest first with their funds, fees, levels and durations', async () => {
    const first = (await get(`/api/trade/cycles?taskId=${taskId}&page=1&pageSize=2`)).body;
    expect(first.code).toBe(0);
    const all = (await get(`/api/trade/cycles?taskId=${taskId}&pageSize=100`)).body.data;
    expect(first.data.total).toBe(all.total);
    expect(first.data.list).toEqual(all.list.slice(0, 2));
    const numbers = all.list.map((c: { cycle: number }) => c.cycle);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    for (const row of all.list) {
      // Levels of the ladder beyond the first order.
      expect(row.levelsFilled).toBeGreaterThanOrEqual(0);
      expect(row.levelsFilled).toBeLessThanOrEqual(3);
      expect(new Big(row.fees).gt(0)).toBe(true);
      // Durations are market time: a minute at least between the first buy and the sell.
      expect(row.durationSeconds).toBeGreaterThanOrEqual(60);
      expect(Math.sign(Number(row.roi))).toBe(new Big(row.realizedProfit).cmp(0));
    }
    const sum = all.list.reduce((s: Big, c: { realizedProfit: string }) => s.plus(c.realizedProfit), new Big(0));
    expect(sum.toFixed()).toBe((await get(`/api/trade/returns?taskId=${taskId}`)).body.data.realizedProfit);
  });

  it('totals the assets: wallet USDT and the paper account valued at its prices', async () => {
    const overview = (await get('/api/trade/overview')).body;
    expect(overview.code).toBe(0);
    const o = overview.data;
    expect(o.assets.wallet).toBe('123.45');
    expect(o.assets.complete).toBe(true);
    expect(o.assets.accounts).toHaveLength(1);
    const balances = await server.db.selectFrom('paper_balances').select(['asset', 'free', 'used']).where('exchange_account_id', '=', exchangeId).execute();
    const price = (await get(`/api/trade/returns?taskId=${taskId}`)).body.data.lastPrice;
    const paper = balances.reduce((sum, b) => {
      const held = new Big(b.free).plus(b.used);
      return sum.plus(b.asset === 'USDT' ? held : held.times(price));
    }, new Big(0));
    expect(new Big(o.assets.accounts[0].value).minus(paper).abs().lte('0.00000001')).toBe(true);
    expect(o.assets.total).toBe(new Big(o.assets.accounts[0].value).plus('123.45').toFixed());
    // One task: the overview's return is the task's.
    const task = (await get(`/api/trade/returns?taskId=${taskId}`)).body.data;
    expect(o).toMatchObject({ tasks: 1, cyclesClosed: task.cyclesClosed, realizedProfit: task.realizedProfit, maxInvested: task.maxInvested, roi: task.roi });
    expect(o.curve.at(-1).profit).toBe(task.realizedProfit);
    // The paper account started with 10 000 USDT: what it holds now is that plus the task's change in value.
    expect(new Big(o.assets.accounts[0].value).minus(new Big(10_000).plus(task.totalProfit)).abs().lte('0.00000001')).toBe(true);
  });

  it("refuses another user's task and bad input, and answers a newcomer with zeros", async () => {
    const other = await registerUser(server, { email: 'nosy@example.com' });
    expect((await get(`/api/trade/returns?taskId=${taskId}`, other.accessToken)).body.code).toBe(10006);
    expect((await get(`/api/trade/cycles?taskId=${taskId}`, other.accessToken)).body.code).toBe(10006);
    expect((await get('/api/trade/returns?taskId=nope')).body.code).toBe(10003);
    expect((await get(`/api/trade/cycles?taskId=${taskId}&pageSize=101`)).body.code).toBe(10002);
    expect((await server.call('GET', '/api/trade/overview')).status).toBe(401);
    const empty = (await get('/api/trade/overview', other.accessToken)).body.data;
    expect(empty).toMatchObject({ tasks: 0, cyclesClosed: 0, realizedProfit: '0', totalProfit: '0', roi: null, curve: [], assets: { total: '0', wallet: '0', accounts: [], complete: true } });
  });
});
