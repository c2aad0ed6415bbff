import { describe, expect, it } from 'vitest';
import { createExchangePauses } from './exchangePauses';
import { binanceWeight, budgetRulesOf, isOrderCall } from './exchangeWeights';
import { ENGINE_READ, ORDER, PRICE_READ, createRateBudgets, type BudgetRules } from './rateBudget';

/** A minute of 100 weight in a window far longer than any test: what does not fit now is refused (maxWait 0) or waits. */
const RULES: BudgetRules = { limit: 100, windowMs: 3_600_000, safety: 1, shares: { 0: 1, 1: 0.9, 2: 0.6 }, usedHeader: 'x-mbx-used-weight-1m', maxInFlight: 4 };
const header = (used: number) => ({ 'X-MBX-USED-WEIGHT-1M': String(used) });

const setup = () => {
  const pauses = createExchangePauses();
  const budgets = createRateBudgets({ pauses });
  return { pauses, budgets, budget: budgets.budgetFor('binance', RULES) };
};

describe('the request budget of an exchange', () => {
  it('gives reads 90 % of the window, price reads 60 %, and keeps the rest for orders', async () => {
    const { budget } = setup();
    (await budget.take(1, ENGINE_READ, 0))(header(1));
    for (let i = 0; i < 5; i += 1) (await budget.take(10, PRICE_READ, 0))(header(2 + i * 10));
    await expect(budget.take(10, PRICE_READ, 0)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    for (let i = 0; i < 3; i += 1) (await budget.take(10, ENGINE_READ, 0))();
    await expect(budget.take(10, ENGINE_READ, 0)).rejects.toMatchObject({ failure: { kind: 'transient' } });
    (await budget.take(19, ORDER, 0))();
    await expect(budget.take(1, ORDER, 0)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    expect(budget.stats()).toMatchObject({ spent: 100, peak: 100 });
  });

  it("counts what the exchange says the address used (other processes, a killed one's minute)", async () => {
    const { budget } = setup();
    (await budget.take(1, ENGINE_READ, 0))(header(85));
    // 85 + 10 > 90: the read waits for the next window; an order still fits under 100.
    await expect(budget.take(10, ENGINE_READ, 0)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    (await budget.take(10, ORDER, 0))();
  });

  it('splits the window between the live engine processes', async () => {
    const { budget, budgets } = setup();
    budgets.setProcesses(4);
    (await budget.take(20, ORDER, 0))(header(20));
    await expect(budget.take(10, ORDER, 0)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    budgets.setProcesses(2);
    (await budget.take(10, ORDER, 0))();
  });

  it('sends one request at a time until the exchange told its count, then a few at once, orders first', async () => {
    const { budget } = setup();
    const order: string[] = [];
    const first = await budget.take(1, ENGINE_READ, 0);
    const waiting = [
      budget.take(1, PRICE_READ, 1_000).then((done) => (order.push('price'), done)),
      budget.take(1, ENGINE_READ, 1_000).then((done) => (order.push('read'), done)),
      budget.take(1, ORDER, 1_000).then((done) => (order.push('order'), done)),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    first(header(1));
    await Promise.all(waiting);
    expect(order).toEqual(['order', 'read', 'price']);
    expect(budget.stats().spent).toBe(4);
  });

  it('sends nothing while the exchange is paused: a short pause is waited out, a long one refused', async () => {
    const { budget, pauses } = setup();
    (await budget.take(1, ENGINE_READ, 0))(header(1));
    pauses.pause('binance', Date.now() + 150);
    const started = Date.now();
    const read = budget.take(1, ENGINE_READ, 1_000);
    await expect(budget.take(1, ORDER, 0)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    (await read)();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    pauses.pause('binance', Date.now() + 120_000);
    await expect(budget.take(1, ENGINE_READ, 5_000)).rejects.toMatchObject({ failure: { reason: 'exchange_busy' } });
    // Another exchange is not paused.
    expect((await setup().budgets.budgetFor('okx', budgetRulesOf('okx').rules).take(1, ENGINE_READ, 0)) instanceof Function).toBe(true);
  });

  it("weighs Binance's requests as it documents them", () => {
    expect(binanceWeight('exchangeInfo', 'GET', {})).toBe(20);
    expect(binanceWeight('ticker/24hr', 'GET', { symbol: 'BTCUSDT' })).toBe(2);
    expect(binanceWeight('ticker/24hr', 'GET', { symbols: JSON.stringify(Array.from({ length: 30 }, (_, i) => `S${i}`)) })).toBe(40);
    expect(binanceWeight('ticker/24hr', 'GET', {})).toBe(80);
    expect(binanceWeight('account', 'GET', {})).toBe(20);
    expect(binanceWeight('order', 'GET', {})).toBe(4);
    expect(binanceWeight('order', 'POST', {})).toBe(1);
    expect(binanceWeight('openOrders', 'GET', {})).toBe(80);
    expect(binanceWeight('myTrades', 'GET', { orderId: 1 })).toBe(5);
    expect(isOrderCall('order', 'POST')).toBe(true);
    expect(isOrderCall('order', 'DELETE')).toBe(true);
    expect(isOrderCall('order', 'GET')).toBe(false);
    expect(isOrderCall('trade/order', 'POST')).toBe(true);
    expect(isOrderCall('trade/order', 'GET')).toBe(false);
  });
});
