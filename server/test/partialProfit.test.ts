import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../src/engine/core/candles';
import { registerUser, startServer, type TestServer } from './harness';
import { checkMoney } from './invariants';

/**
 * Issue 28: a take-profit target's partial sale books its profit at once. The
 * cycle stays open with the rest, and the task's realized profit (its list
 * row, its page, its returns, the account's overview) already counts the
 * partial sale's proceeds less the cost basis of what it sold; realized plus
 * floating profit still equals the change in the account's value.
 */
const MINUTE = 60_000;
const T0 = Date.UTC(2024, 0, 1);
/** Minute closes: 100 (the first order), 102 (target 1 sells half at +1.5 %), then 101: under target 2, the rest held. */
const CLOSES = ['100', '102', ...Array.from({ length: 8 }, () => '101')];
const candles: Candle[] = CLOSES.map((close, i) => ({ time: T0 + i * MINUTE, open: close, high: close, low: close, close, volume: '1' }));

const strategy = {
  name: 'Two targets',
  levels: [{ dropPercent: '5', multiple: '1' }],
  takeProfitPercent: '3',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
  takeProfitTargets: [
    { sharePercent: '50', profitPercent: '1.5', trailing: false },
    { sharePercent: '50', profitPercent: '3', trailing: false },
  ],
};

describe('a partial take-profit sale', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("counts in the task's realized profit before its cycle closes", { timeout: 40_000 }, async () => {
    server = await startServer('pglite', { paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles, interval: MINUTE } });
    const s = server;
    const { accessToken } = await registerUser(s, { email: 'partial@example.com', activated: true });
    const call = async (method: string, path: string, body?: unknown) => (await s.call(method, path, body, { token: accessToken })).body;
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).data.id as string;
    const strategyId = (await call('POST', '/api/strategy/add', strategy)).data.id as string;
    const created = await call('POST', '/api/trade/add', {
      exchangeId,
      coinIdList: ['BTC/USDT'],
      cycleCount: 1,
      firstOrderAmount: '50',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId,
    });
    expect(created).toMatchObject({ code: 0 });
    const taskId = created.data[0].id as string;
    for (let i = 0; i < candles.length; i += 1) await s.app.engine.tick();
    await s.app.engine.flush();

    const sold = await s.db.selectFrom('task_events').select('data').where('task_id', '=', taskId).where('kind', '=', 'sold').execute();
    expect(sold.map((e) => (e.data as Record<string, unknown>).partial)).toEqual([true]);
    const profit = new Big((sold[0]!.data as { profit: string }).profit);
    expect(profit.gt(0)).toBe(true);
    expect(await s.db.selectFrom('cycles').select('id').where('task_id', '=', taskId).execute()).toEqual([]);

    const detail = (await call('GET', `/api/trade/detail/${taskId}`)).data as { realizedProfit: string; phase: string };
    expect(detail.phase).toBe('open');
    expect(new Big(detail.realizedProfit).eq(profit)).toBe(true);
    const list = (await call('GET', '/api/trade/list?page=1&pageSize=10&sort=realizedProfit&order=DESC')).data as { list: { id: string; realizedProfit: string }[] };
    expect(new Big(list.list.find((t) => t.id === taskId)!.realizedProfit).eq(profit)).toBe(true);
    const returns = (await call('GET', `/api/trade/returns?taskId=${taskId}`)).data as { realizedProfit: string };
    expect(new Big(returns.realizedProfit).eq(profit)).toBe(true);
    const overview = (await call('GET', '/api/trade/overview')).data as { realizedProfit: string };
    expect(new Big(overview.realizedProfit).eq(profit)).toBe(true);

    // The order says which target it sold for (the task's ladder marks it).
    const orders = (await call('GET', `/api/trade/order-history?taskId=${taskId}&page=1&pageSize=10`)).data as { list: { side: string; target?: number }[] };
    expect(orders.list.map((o) => [o.side, o.target ?? null])).toEqual([['sell', 1], ['buy', null]]);

    const money = await checkMoney(s);
    expect(new Big(money.accounts[0]!.realized).eq(profit)).toBe(true);
  });
});
