import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { maxCycleFunds, type StrategySettings } from '../../api/strategy';
import type { TradeOrder } from '../../api/trade';
import { taskLadder } from './taskLadder';

const strategy: StrategySettings = {
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '2' },
    { dropPercent: '8', multiple: '4' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

let orderId = 0;
const buy = (level: number, price: string, cost: string, fee: string, feeCurrency: string | null): TradeOrder => ({
  id: String(++orderId),
  taskId: 't',
  symbol: 'BTC/USDT',
  cycle: 1,
  level,
  side: 'buy',
  reason: level === 0 ? 'first' : 'replenish',
  status: 'closed',
  price,
  amount: new Big(cost).div(price).toFixed(),
  cost,
  fee,
  feeCurrency,
  error: null,
  tickSize: '0.01',
  amountStep: '0.00001',
  createdAt: '2026-11-27T00:00:00Z',
});

/** The task as the engine books these buys: cost with quote fees, quantity net of base fees, plus a carried remainder. */
const taskOf = (orders: TradeOrder[], carried = { cost: '0', quantity: '0' }) => {
  let cost = new Big(carried.cost);
  let quantity = new Big(carried.quantity);
  for (const order of orders) {
    cost = cost.plus(order.cost).plus(order.feeCurrency === 'USDT' ? order.fee : 0);
    quantity = quantity.plus(order.amount).minus(order.feeCurrency === 'BTC' ? order.fee : 0);
  }
  return {
    symbol: 'BTC/USDT',
    strategy,
    firstOrderAmount: '100',
    firstOrderMultiple: false,
    firstFillPrice: orders[0]?.price ?? null,
    lastPrice: '95000',
    levelsFilled: Math.max(0, orders.length - 1),
    cost: cost.toFixed(),
    quantity: quantity.toFixed(),
    averagePrice: quantity.gt(0) ? cost.div(quantity).toFixed() : null,
    phase: orders.length > 0 ? ('open' as const) : ('ready' as const),
  };
};

describe('the task ladder', () => {
  it('shows bought levels with their fills, and the last bought average is the task’s own', () => {
    const orders = [buy(0, '100000', '100', '0.1', 'USDT'), buy(1, '97990', '100', '0.00000102', 'BTC')];
    const task = taskOf(orders);
    const ladder = taskLadder(task, orders)!;
    expect(ladder.projected).toBe(false);
    expect(ladder.rows.map((row) => row.fill !== null)).toEqual([true, true, false, false]);
    expect(ladder.rows[1]!.fill).toEqual({ price: '97990', cost: '100', quantity: orders[1]!.amount });
    expect(new Big(ladder.rows[1]!.averageAfter).minus(task.averagePrice!).abs().lt('0.00000001')).toBe(true);
    // Triggers come from the first fill, not from the level's own fill.
    expect(ladder.rows.map((row) => row.trigger)).toEqual(['100000', '98000', '96000', '92000']);
    expect(ladder.rows.map((row) => row.next)).toEqual([false, false, true, false]);
    expect(ladder.rows.map((row) => row.fundsNeeded)).toEqual([null, null, '200', '600']);
    expect(ladder.fundsNeeded).toBe('600');
  });

  it('projects pending levels from the position held: averages fall, take profit stays above each average', () => {
    const orders = [buy(0, '100000', '100', '0', null)];
    const ladder = taskLadder(taskOf(orders), orders)!;
    const averages = ladder.rows.map((row) => new Big(row.averageAfter));
    for (let i = 1; i < averages.length; i++) expect(averages[i]!.lt(averages[i - 1]!)).toBe(true);
    for (const row of ladder.rows) expect(new Big(row.takeProfitAfter).div(row.averageAfter).toFixed(4)).toBe('1.0150');
    // After every level: the cost of all four over the quantity each bought at its trigger.
    const quantity = new Big(100).div(100000).plus(new Big(100).div(98000)).plus(new Big(200).div(96000)).plus(new Big(400).div(92000));
    expect(ladder.rows[3]!.averageAfter).toBe(new Big(800).div(quantity).round(8).toFixed());
  });

  it('counts a remainder carried from the last cycle in the averages', () => {
    const orders = [buy(0, '100000', '100', '0', null)];
    const task = taskOf(orders, { cost: '5', quantity: '0.00006' });
    const ladder = taskLadder(task, orders)!;
    expect(ladder.rows[0]!.averageAfter).toBe(new Big(task.cost).div(task.quantity).round(8).toFixed());
    expect(ladder.rows[0]!.fill?.cost).toBe('100');
  });

  it('marks the take-profit target that sold: its price, amount and proceeds net of a quote fee', () => {
    const targets = { ...strategy, takeProfitTargets: [{ sharePercent: '40', profitPercent: '1', trailing: false }, { sharePercent: '60', profitPercent: '2', trailing: false }] };
    const first = buy(0, '100000', '100', '0.1', 'USDT');
    const sale: TradeOrder = { ...first, id: 'sell', side: 'sell', reason: 'take_profit', target: 1, price: '101000', amount: '0.0004', cost: '40.4', fee: '0.0404' };
    // The position after target 1 sold 40 %: 60 % of what the first order bought, at the same average.
    const task = { ...taskOf([first]), strategy: targets, cost: '60.06', quantity: '0.0006' };
    const ladder = taskLadder(task, [first, sale])!;
    expect(ladder.targets).toEqual([
      { target: 1, sharePercent: '40', profitPercent: '1', price: '101101', sold: { price: '101000', quantity: '0.0004', proceeds: '40.3596' } },
      { target: 2, sharePercent: '60', profitPercent: '2', price: '102102', sold: null },
    ]);
    // A sale without a target (a single take profit, an older order) marks none; a single target lists none.
    expect(taskLadder(task, [first, { ...sale, target: undefined }])!.targets.map((row) => row.sold)).toEqual([null, null]);
    expect(taskLadder({ ...task, strategy }, [first, sale])!.targets).toEqual([]);
  });

  it('without a cycle under way, is the ladder a cycle opened at the last price would get', () => {
    const task = taskOf([]);
    const ladder = taskLadder(task, [])!;
    expect(ladder.projected).toBe(true);
    expect(ladder.rows[0]!.trigger).toBe('95000');
    expect(ladder.rows.every((row) => row.fill === null)).toBe(true);
    expect(ladder.rows[0]!.next).toBe(true);
    expect(ladder.fundsNeeded).toBe(maxCycleFunds(strategy, '100'));
    expect(taskLadder({ ...task, lastPrice: null }, [])).toBeNull();
  });
});
