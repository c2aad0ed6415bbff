import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildLevels,
  levelMultiples,
  maxCycleFunds,
  stepScaleDrops,
  stopLossPrice,
  targetsOf,
  strategyProblem,
  type MultipleMode,
  type StrategySettings,
} from '../../../../src/api/strategy';
import {
  UNTIL_STOPPED,
  applyBuyFill,
  applyOrderFailed,
  applyPartialSellFill,
  applySellFill,
  averagePrice,
  decide,
  decideExact,
  initialCycleState,
  quietBounds,
  splitSale,
  type Action,
  type CycleState,
  type Decision,
  type TaskParams,
} from './decide';

const strategyOf = (overrides: Partial<StrategySettings> = {}): StrategySettings => ({
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '2' },
    { dropPercent: '8', multiple: '4' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 60,
  ...overrides,
});

const paramsOf = (overrides: Partial<TaskParams> = {}): TaskParams => ({
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 3,
  replenishStatus: 'replenish_open',
  running: true,
  ...overrides,
});

/** A fee-free fill of a buy at `price`: exactly quoteAmount / price. */
const fillBuy = (state: CycleState, action: Action, price: string): CycleState => {
  if (action.kind !== 'buy') throw new Error(`not a buy: ${JSON.stringify(action)}`);
  return applyBuyFill(state, { price, quantity: new Big(action.quoteAmount).div(price).toFixed(), cost: action.quoteAmount, level: action.level });
};

const trades = (d: Decision) => d.actions.filter((a) => a.kind !== 'event');

/** A cycle opened by a first order of 10 quote filled at 100 (0.1 base). */
const openAt100 = (params = paramsOf(), strategy = strategyOf()): CycleState => {
  const d = decide(params, strategy, initialCycleState(), '100', 0, true);
  return fillBuy(d.state, d.actions[0]!, '100');
};

describe('decide: worked examples', () => {
  it('places the first order, doubled when firstOrderMultiple, then waits for its fill', () => {
    const d = decide(paramsOf(), strategyOf(), initialCycleState(), '100', 0, true);
    expect(d.actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10' }]);
    expect(d.state.pendingOrder).toBe(true);
    expect(decide(paramsOf(), strategyOf(), d.state, '50', 0, true).actions).toEqual([]);

    const doubled = decide(paramsOf({ firstOrderMultiple: true }), strategyOf(), initialCycleState(), '100', 0, true);
    expect(doubled.actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '20' }]);

    const state = fillBuy(d.state, d.actions[0]!, '100');
    expect(state).toMatchObject({ phase: 'open', firstFillPrice: '100', levelsFilled: 0, quantity: '0.1', cost: '10', pendingOrder: false });
    expect(averagePrice(state)).toBe('100');
  });

  it('buys level 1 and level 2 when the price falls their drop below the first fill (0 callback)', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    let state = openAt100();
    expect(decide(params, strategy, state, '98.01', 0, true).actions).toEqual([]);
    let d = decide(params, strategy, state, '98', 0, true);
    expect(d.actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
    state = fillBuy(d.state, d.actions[0]!, '98');
    expect(state.levelsFilled).toBe(1);
    expect(decide(params, strategy, state, '97', 0, true).actions).toEqual([]);
    d = decide(params, strategy, state, '96', 0, true);
    expect(d.actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 2, quoteAmount: '20' }]);
    state = fillBuy(d.state, d.actions[0]!, '96');
    expect(state.levelsFilled).toBe(2);
    expect(new Big(state.cost).eq(40)).toBe(true);
  });

  it('trailing buy: touches the level, follows the low and buys on the rebound', () => {
    const params = paramsOf();
    const strategy = strategyOf({ replenishCallbackPercent: '1' });
    let state = openAt100(params, strategy);
    let d = decide(params, strategy, state, '98', 0, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'replenish_touched', level: 1 }]);
    expect(d.state.trailingBuy).toEqual({ level: 1, low: '98' });
    state = d.state;
    d = decide(params, strategy, state, '97', 0, true);
    expect(d.actions).toEqual([]);
    expect(d.state.trailingBuy).toEqual({ level: 1, low: '97' });
    state = d.state;
    // 97 * 1.01 = 97.97: one cent short is still waiting, even back above the trigger.
    expect(decide(params, strategy, state, '97.5', 0, true)).toEqual({ state, actions: [] });
    expect(decide(params, strategy, state, '97.96', 0, true).state).toBe(state);
    d = decide(params, strategy, state, '97.97', 0, true);
    expect(d.actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
    state = fillBuy(d.state, d.actions[0]!, '97.97');
    expect(state.trailingBuy).toBeNull();
    expect(state.levelsFilled).toBe(1);
  });

  it('a price gapping through several levels buys one level per decision', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    let state = openAt100();
    const bought: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = decide(params, strategy, state, '90', 0, true);
      const buys = trades(d);
      expect(buys.length).toBeLessThanOrEqual(1);
      if (buys.length === 0) break;
      bought.push((buys[0] as { level: number }).level);
      state = fillBuy(d.state, buys[0]!, '90');
    }
    // Level 3 (drop 8 %, trigger 92) is also below 90: bought on the third decision.
    expect(bought).toEqual([1, 2, 3]);
    expect(decide(params, strategy, state, '50', 0, true).actions).toEqual([]);
  });

  it('take profit with 0 callback arms and sells everything at once', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    const state = openAt100();
    expect(decide(params, strategy, state, '101.49', 0, true).actions).toEqual([]);
    const d = decide(params, strategy, state, '101.5', 0, true);
    expect(d.actions).toEqual([
      { kind: 'event', event: 'take_profit_armed' },
      { kind: 'sell', reason: 'take_profit', quantity: '0.1' },
    ]);
    expect(d.state.pendingOrder).toBe(true);
  });

  it('trailing sell follows the high and sells after the callback from it', () => {
    const params = paramsOf();
    const strategy = strategyOf({ takeProfitCallbackPercent: '0.5' });
    let state = openAt100(params, strategy);
    let d = decide(params, strategy, state, '101.5', 0, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'take_profit_armed' }]);
    expect(d.state.trailingSell).toEqual({ high: '101.5' });
    d = decide(params, strategy, d.state, '103', 0, true);
    expect(d.actions).toEqual([]);
    expect(d.state.trailingSell).toEqual({ high: '103' });
    state = d.state;
    // 103 * 0.995 = 102.485
    expect(decide(params, strategy, state, '102.49', 0, true).state).toBe(state);
    d = decide(params, strategy, state, '102.485', 0, true);
    expect(d.actions).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.1' }]);
  });

  it('disarms take profit when the price falls back to the average before the callback, and never sells at a loss', () => {
    const params = paramsOf();
    const strategy = strategyOf({ takeProfitCallbackPercent: '1' });
    const armed = decide(params, strategy, openAt100(params, strategy), '101.5', 0, true).state;
    const d = decide(params, strategy, armed, '100', 0, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'take_profit_disarmed' }]);
    expect(d.state.trailingSell).toBeNull();
    expect(decide(params, strategy, d.state, '99.9', 0, true).actions).toEqual([]);
    expect(decide(params, strategy, d.state, '101.5', 0, true).actions).toEqual([{ kind: 'event', event: 'take_profit_armed' }]);
  });

  it('disarms at the average when the callback line lies below it', () => {
    const params = paramsOf();
    // Armed at 101: the callback line 101 * (1 - 0.00999) = 99.99 is under the average of 100.
    const strategy = strategyOf({ takeProfitPercent: '1', takeProfitCallbackPercent: '0.999' });
    const armed = decide(params, strategy, openAt100(params, strategy), '101', 0, true).state;
    expect(decide(params, strategy, armed, '100.01', 0, true)).toEqual({ state: armed, actions: [] });
    const d = decide(params, strategy, armed, '100', 0, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'take_profit_disarmed' }]);
    expect(decide(params, strategy, d.state, '99.99', 0, true).actions).toEqual([]);
  });

  it('take profit comes before a level that triggers at the same price', () => {
    const params = paramsOf();
    const strategy = strategyOf({ takeProfitCallbackPercent: '0.5' });
    let d = decide(params, strategy, openAt100(params, strategy), '50', 0, true);
    // Level 1 bought at 50 after a gap: average 20 / 0.3 = 66.67, take profit 67.67, level 2 still triggers below 96.
    const state = fillBuy(d.state, d.actions[0]!, '50');
    d = decide(params, strategy, state, '70', 0, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'take_profit_armed' }]);
    d = decide(params, strategy, d.state, '71', 0, true);
    expect(d.actions).toEqual([]);
    expect(d.state).toMatchObject({ trailingSell: { high: '71' }, trailingBuy: null, pendingOrder: false });
    expect(trades(decide(params, strategyOf(), state, '70', 0, true))).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.3' }]);
  });

  it('stop loss sells everything at average * (1 - stop / 100)', () => {
    const params = paramsOf();
    const strategy = strategyOf({ levels: [], stopLossPercent: '10' });
    const state = openAt100(params, strategy);
    expect(decide(params, strategy, state, '90.01', 0, true).actions).toEqual([]);
    expect(decide(params, strategy, state, '90', 0, true).actions).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.1' }]);
    // Stop loss comes before a level that triggers at the same price.
    const deep = strategyOf({ stopLossPercent: '5' });
    expect(decide(params, deep, openAt100(params, deep), '90', 0, true).actions).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.1' }]);
  });

  it('replenish_closed never buys a level but still takes profit and stops loss', () => {
    const params = paramsOf({ replenishStatus: 'replenish_closed' });
    const strategy = strategyOf({ stopLossPercent: '20', replenishCallbackPercent: '1' });
    const state = openAt100(params, strategy);
    for (const price of ['98', '95', '90', '85']) expect(decide(params, strategy, state, price, 0, true).actions).toEqual([]);
    expect(trades(decide(params, strategy, state, '101.5', 0, true))).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.1' }]);
    expect(trades(decide(params, strategy, state, '80', 0, true))).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.1' }]);
    // A level being trailed when the status closes is dropped, not bought.
    const trailing = decide(paramsOf(), strategy, state, '97', 0, true).state;
    expect(trailing.trailingBuy).not.toBeNull();
    const closed = decide(params, strategy, trailing, '99', 0, true);
    expect(closed.actions).toEqual([]);
    expect(closed.state.trailingBuy).toBeNull();
  });

  it('waits the cooldown after a cycle, then opens the next one', () => {
    const params = paramsOf();
    const strategy = strategyOf({ cooldownSeconds: 60 });
    const sell = decide(params, strategy, openAt100(), '101.5', 1_000, true);
    const closed = applySellFill(sell.state, strategy, 1_000);
    expect(closed).toMatchObject({ cyclesDone: 1, phase: 'cooldown', cooldownUntil: 61_000, quantity: '0', cost: '0', firstFillPrice: null });
    expect(decide(params, strategy, closed, '100', 60_999, true)).toEqual({ state: closed, actions: [] });
    const next = decide(params, strategy, closed, '100', 61_000, true);
    expect(next.actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10' }]);
    const open = fillBuy(next.state, next.actions[0]!, '100');
    expect(open).toMatchObject({ cyclesDone: 1, phase: 'open', levelsFilled: 0 });
  });

  it('finishes when the cycle count is reached and buys nothing more', () => {
    const params = paramsOf({ cycleCount: 1 });
    const strategy = strategyOf({ cooldownSeconds: 0 });
    const sell = decide(params, strategy, openAt100(params, strategy), '101.5', 0, true);
    const closed = applySellFill(sell.state, strategy, 0);
    const d = decide(params, strategy, closed, '100', 10_000, true);
    expect(d.actions).toEqual([{ kind: 'event', event: 'finished' }]);
    expect(d.state.phase).toBe('finished');
    expect(decide(params, strategy, d.state, '50', 20_000, true)).toEqual({ state: d.state, actions: [] });
  });

  it('cycleCount 9999 runs until stopped', () => {
    const state = { ...initialCycleState(), cyclesDone: UNTIL_STOPPED + 5 };
    expect(trades(decide(paramsOf({ cycleCount: UNTIL_STOPPED }), strategyOf(), state, '100', 0, true))).toHaveLength(1);
  });

  it('mayOpenCycle false: an open cycle still replenishes and completes, no new first order', () => {
    const params = paramsOf();
    const strategy = strategyOf({ cooldownSeconds: 0 });
    expect(decide(params, strategy, initialCycleState(), '100', 0, false).actions).toEqual([]);
    let state = openAt100(params, strategy);
    let d = decide(params, strategy, state, '98', 0, false);
    expect(trades(d)).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
    state = fillBuy(d.state, d.actions[0]!, '98');
    d = decide(params, strategy, state, '101', 0, false);
    expect(trades(d)).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: state.quantity }]);
    state = applySellFill(d.state, strategy, 0);
    d = decide(params, strategy, state, '100', 0, false);
    expect(d.actions).toEqual([{ kind: 'event', event: 'cycle_wait' }]);
    expect(d.state.phase).toBe('ready');
    expect(decide(params, strategy, d.state, '100', 0, false)).toEqual({ state: d.state, actions: [] });
    expect(trades(decide(params, strategy, d.state, '100', 0, true))).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10' }]);
  });

  it('a stopped task does nothing and keeps its position', () => {
    const params = paramsOf({ running: false });
    const strategy = strategyOf({ stopLossPercent: '10' });
    const state = openAt100(paramsOf(), strategy);
    for (const price of ['50', '98', '101.5', '200']) expect(decide(params, strategy, state, price, 0, true)).toEqual({ state, actions: [] });
    expect(decide(params, strategy, initialCycleState(), '100', 0, true).actions).toEqual([]);
  });

  it('a pending order blocks every trading action', () => {
    const strategy = strategyOf({ stopLossPercent: '10' });
    const pending = { ...openAt100(), pendingOrder: true };
    for (const price of ['50', '98', '101.5']) expect(decide(paramsOf(), strategy, pending, price, 0, true)).toEqual({ state: pending, actions: [] });
    const ready = { ...initialCycleState(), pendingOrder: true };
    expect(decide(paramsOf(), strategy, ready, '100', 0, true).actions).toEqual([]);
  });

  it('a failed order is decided again on the next price', () => {
    const d = decide(paramsOf(), strategyOf(), openAt100(), '98', 0, true);
    const again = decide(paramsOf(), strategyOf(), applyOrderFailed(d.state), '97.5', 0, true);
    expect(again.actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
  });

  it('take profit and its trail count fees: the average is cost (fees in quote included) over net quantity', () => {
    const state = applyBuyFill(initialCycleState(), { price: '100', quantity: '0.0999', cost: '10.01', level: 0 });
    expect(averagePrice(state)).toBe('100.2002002002002002002');
    // 100 * 0.0999 * 101.5 ... take profit arms at 100.2002 * 1.015 = 101.7032...
    expect(decide(paramsOf(), strategyOf(), state, '101.7', 0, true).actions).toEqual([]);
    expect(trades(decide(paramsOf(), strategyOf(), state, '101.71', 0, true))).toHaveLength(1);
    expect(averagePrice(initialCycleState())).toBeNull();
  });

  it('take profit waits until a sale covers its taker fee, and a trail disarms at that break-even', () => {
    const params = paramsOf({ feeRate: '0.01' });
    // Average 100; take profit 0.5 % would arm at 100.5, but selling there nets 99.495: the break-even is 100 / 0.99 = 101.0101...
    const strategy = strategyOf({ takeProfitPercent: '0.5' });
    const state = openAt100(params, strategy);
    expect(decide(params, strategy, state, '100.5', 0, true).actions).toEqual([]);
    expect(decide(params, strategy, state, '101.01', 0, true).actions).toEqual([]);
    expect(trades(decide(params, strategy, state, '101.02', 0, true))).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.1' }]);
    expect(trades(decide(paramsOf(), strategy, state, '100.5', 0, true))).toHaveLength(1);

    const trailing = strategyOf({ takeProfitPercent: '3', takeProfitCallbackPercent: '1' });
    const armed = decide(params, trailing, openAt100(params, trailing), '103', 0, true).state;
    expect(armed.trailingSell).toEqual({ high: '103' });
    // A gap from 103 to 101 is past the callback line (101.97) but below the break-even: disarm, do not sell at a loss.
    const gap = decide(params, trailing, armed, '101', 0, true);
    expect(gap.actions).toEqual([{ kind: 'event', event: 'take_profit_disarmed' }]);
    expect(trades(decide(params, trailing, armed, '101.5', 0, true))).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.1' }]);
  });

  it('a sell books cost for what it sold; the remainder keeps its cost basis and opens the next cycle with it', () => {
    const strategy = strategyOf({ cooldownSeconds: 0 });
    const open = applyBuyFill(initialCycleState(), { price: '100', quantity: '0.09999', cost: '10', level: 0, fee: '0.01', at: 5_000 });
    expect(open).toMatchObject({ openedAt: 5_000, fees: '0.01' });
    const split = splitSale(open, '0.0999');
    // 10 * 0.0999 / 0.09999 = 9.99099909... rounded down to 8 decimals; the rest stays with the remainder.
    expect(split).toEqual({ sold: '0.0999', basis: '9.99099909', remainder: '0.00009', remainderCost: '0.00900091' });
    expect(new Big(split.basis).plus(split.remainderCost).eq(open.cost)).toBe(true);
    expect(splitSale(open, '1')).toEqual({ sold: '0.09999', basis: '10', remainder: '0', remainderCost: '0' });

    const closed = applySellFill({ ...open, pendingOrder: true }, strategy, 9_000, { quantity: '0.0999' });
    expect(closed).toMatchObject({ cyclesDone: 1, phase: 'cooldown', quantity: '0.00009', cost: '0.00900091', openedAt: null, fees: '0', pendingOrder: false });
    // The next first order adds to the carried remainder; the cycle's fees start again.
    const next = applyBuyFill(closed, { price: '101', quantity: '0.0990', cost: '10', level: 0, fee: '0.0101', at: 10_000 });
    expect(next).toMatchObject({ phase: 'open', quantity: '0.09909', cost: '10.00900091', firstFillPrice: '101', levelsFilled: 0, openedAt: 10_000, fees: '0.0101' });
    const level = applyBuyFill(next, { price: '99', quantity: '0.1', cost: '9.9', level: 1, fee: '0.0099' });
    expect(level).toMatchObject({ openedAt: 10_000, fees: '0.02', levelsFilled: 1 });
    // Between cycles the remainder is no position to trade: decide opens the next cycle as usual.
    expect(decide(paramsOf(), strategy, closed, '100', 9_000, true).actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10' }]);
  });

  it('several targets: half at +1.5 %, the rest at +3 %; no level buys after the first; the cycle books both sales', () => {
    const params = paramsOf();
    const strategy = strategyOf({
      takeProfitTargets: [
        { sharePercent: '50', profitPercent: '1.5', trailing: false },
        { sharePercent: '50', profitPercent: '3', trailing: false },
      ],
    });
    let state = openAt100(params, strategy);
    expect(decide(params, strategy, state, '101.49', 0, true).actions).toEqual([]);
    let d = decide(params, strategy, state, '101.5', 0, true);
    expect(trades(d)).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.05', target: 1, partial: true }]);
    state = applyPartialSellFill(d.state, { quantity: '0.05', proceeds: '5.075' });
    expect(state).toMatchObject({ phase: 'open', quantity: '0.05', cost: '5', targetsDone: 1, partial: { sold: '0.05', basis: '5', proceeds: '5.075' } });
    // The second target arms against the same average; the ladder is over for this cycle.
    expect(decide(params, strategy, state, '102.9', 0, true).actions).toEqual([]);
    expect(decide(params, strategy, state, '90', 0, true).actions).toEqual([]);
    d = decide(params, strategy, state, '103', 0, true);
    expect(trades(d)).toEqual([{ kind: 'sell', reason: 'take_profit', quantity: '0.05', target: 2 }]);
    expect(applySellFill(d.state, strategy, 0)).toMatchObject({ phase: 'cooldown', cyclesDone: 1, targetsDone: 0, partial: null, quantity: '0' });
  });

  it('a share below the market minimum, or leaving less than it, sells the whole position', () => {
    const strategy = strategyOf({
      takeProfitTargets: [
        { sharePercent: '30', profitPercent: '1.5', trailing: false },
        { sharePercent: '70', profitPercent: '3', trailing: false },
      ],
    });
    const state = openAt100(paramsOf(), strategy);
    // 30 % of 10.15 quote is 3.045: below a 5 quote minimum.
    const at = (limits: TaskParams['limits']) => trades(decide(paramsOf({ limits }), strategy, state, '101.5', 0, true))[0];
    expect(at({ minCost: '5' })).toEqual({ kind: 'sell', reason: 'take_profit', quantity: '0.1', target: 1 });
    expect(at({ minCost: '3' })).toMatchObject({ quantity: '0.03', partial: true });
    // An amount step of 0.02 sells 0.02 of 0.1; one of 0.04 would sell nothing of the share: all then.
    expect(at({ amountStep: '0.02' })).toMatchObject({ quantity: '0.02', partial: true });
    expect(at({ amountStep: '0.04' })).toMatchObject({ quantity: '0.1' });
    // A minimum amount of 0.08 is above what the share leaves.
    expect(at({ minAmount: '0.08' })).toMatchObject({ quantity: '0.1' });
  });

  it('break-even after the first target: the rest is sold as soon as it would no longer cover its cost after the fee', () => {
    const params = paramsOf({ feeRate: '0.001' });
    const strategy = strategyOf({
      breakEven: true,
      takeProfitTargets: [
        { sharePercent: '50', profitPercent: '1.5', trailing: false },
        { sharePercent: '50', profitPercent: '3', trailing: false },
      ],
    });
    let state = openAt100(params, strategy);
    // Before a target, the break-even is no stop.
    expect(decide(params, strategy, state, '99', 0, true).actions).toEqual([]);
    state = applyPartialSellFill({ ...state, pendingOrder: true }, { quantity: '0.05', proceeds: '5.07' });
    // 100 / 0.999 = 100.1001...: above it nothing, at or below it the stop.
    expect(decide(params, strategy, state, '100.11', 0, true).actions).toEqual([]);
    expect(trades(decide(params, strategy, state, '100.1', 0, true))).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.05', stop: 'break_even' }]);
  });

  it('stop loss from the last level, armed only after it filled; the time stop', () => {
    const params = paramsOf();
    // Last level at 8 % below the first fill (92); 5 % below it: 87.4.
    const strategy = strategyOf({ stopLossPercent: '5', stopLossBase: 'last_level', stopLossAfterLastLevel: true, timeStopHours: 2 });
    expect(strategyProblem(strategy)).toBeNull();
    let state = openAt100(params, strategy);
    state = { ...state, openedAt: 0 };
    // Not armed before the last level: 87 buys level 1 instead.
    expect(trades(decide(params, strategy, state, '87', 1_000, true))).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
    const armed = { ...state, levelsFilled: 3 };
    expect(decide(params, strategy, armed, '87.41', 1_000, true).actions).toEqual([]);
    expect(trades(decide(params, strategy, armed, '87.4', 1_000, true))).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.1', fromLastLevel: true }]);
    // Two hours after the first fill, at any price.
    expect(decide(params, strategy, state, '100', 7_199_999, true).actions).toEqual([]);
    expect(trades(decide(params, strategy, state, '100', 7_200_000, true))).toEqual([{ kind: 'sell', reason: 'stop_loss', quantity: '0.1', stop: 'time' }]);
    expect(quietBounds(params, strategy, state)).toBeNull();
  });

  it('validates the targets, the time stop and the break-even', () => {
    const target = (sharePercent: string, profitPercent: string, trailing = false) => ({ sharePercent, profitPercent, trailing });
    expect(strategyProblem(strategyOf({ takeProfitTargets: [target('50', '1.5'), target('40', '3')] }))).toEqual({ code: 'targets_share_sum' });
    expect(strategyProblem(strategyOf({ takeProfitTargets: [target('0', '1.5'), target('100', '3')] }))).toEqual({ code: 'target_share', target: 1 });
    expect(strategyProblem(strategyOf({ takeProfitTargets: [target('50', '3'), target('50', '3')] }))).toEqual({ code: 'target_profit_increase', target: 2 });
    expect(strategyProblem(strategyOf({ takeProfitTargets: [target('50', '0.1'), target('50', '3')] }))).toMatchObject({ code: 'target_floor', target: 1 });
    expect(strategyProblem(strategyOf({ takeProfitCallbackPercent: '1', takeProfitTargets: [target('50', '1.5'), target('50', '3', true)] }))).toBeNull();
    expect(strategyProblem(strategyOf({ takeProfitCallbackPercent: '1', takeProfitTargets: [target('50', '1.5'), target('50', '1', true)] }))).toMatchObject({ code: 'target_profit_increase' });
    expect(strategyProblem(strategyOf({ takeProfitTargets: Array.from({ length: 6 }, (_, i) => target(i < 5 ? '16' : '20', String(i + 1))) }))).toEqual({ code: 'targets_count' });
    expect(strategyProblem(strategyOf({ timeStopHours: 0 }))).toEqual({ code: 'time_stop' });
    expect(strategyProblem(strategyOf({ timeStopHours: 1.5 }))).toEqual({ code: 'time_stop' });
    expect(strategyProblem(strategyOf({ breakEven: true }))).toEqual({ code: 'break_even_targets' });
    // From the last level, the stop need not be deeper than the ladder.
    expect(strategyProblem(strategyOf({ stopLossPercent: '3' }))).toEqual({ code: 'stop_loss_deeper' });
    expect(strategyProblem(strategyOf({ stopLossPercent: '3', stopLossBase: 'last_level' }))).toBeNull();
  });

  it('rejects a price that is not above 0', () => {
    expect(() => decide(paramsOf(), strategyOf(), openAt100(), '0', 0, true)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------- properties

const strategyArb: fc.Arbitrary<StrategySettings> = fc
  .record({
    count: fc.integer({ min: 0, max: 6 }),
    firstStep: fc.integer({ min: 10, max: 800 }),
    stepScale: fc.constantFrom('1', '1.2', '1.5', '2'),
    mode: fc.constantFrom<MultipleMode>('equal', 'doubling', 'arithmetic'),
    takeProfit: fc.integer({ min: 10, max: 600 }),
    // Per ten thousand of the take profit; near 10 000 the trail can reach the average before the callback.
    callbackShare: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: 9_900, max: 9_999 })),
    replenishCallback: fc.constantFrom('0', '0.2', '1', '3.5'),
    stopLossExtra: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
    cooldownSeconds: fc.integer({ min: 0, max: 20 }),
    // Issue 28's exits: several targets (steps over the take profit in basis points, shares), stop base and arming, time stop, break-even.
    targets: fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as { step: number; share: number; trailing: boolean }[]) },
      { weight: 3, arbitrary: fc.array(fc.record({ step: fc.integer({ min: 1, max: 400 }), share: fc.integer({ min: 1, max: 80 }), trailing: fc.boolean() }), { minLength: 2, maxLength: 3 }) },
    ),
    stopLossBase: fc.constantFrom<'average' | 'last_level' | undefined>(undefined, 'average', 'last_level'),
    stopLossAfterLastLevel: fc.boolean(),
    timeStopHours: fc.constantFrom<number | null>(null, null, 1, 3),
    breakEven: fc.boolean(),
  })
  .map((r): StrategySettings => {
    const levels = buildLevels(stepScaleDrops(new Big(r.firstStep).div(100).toFixed(), r.stepScale, r.count), levelMultiples(r.mode, r.count));
    const lastDrop = levels.length ? new Big(levels[levels.length - 1]!.dropPercent) : new Big(0);
    const takeProfit = new Big(r.takeProfit).div(100);
    const fromLast = r.stopLossBase === 'last_level';
    const settings: StrategySettings = {
      levels,
      takeProfitPercent: takeProfit.toFixed(),
      takeProfitCallbackPercent: takeProfit.times(r.callbackShare).div(10_000).round(4, Big.roundDown).toFixed(),
      replenishCallbackPercent: r.replenishCallback,
      stopLossPercent: r.stopLossExtra === null ? null : fromLast ? String(r.stopLossExtra) : lastDrop.plus(r.stopLossExtra).toFixed(),
      cooldownSeconds: r.cooldownSeconds,
    };
    if (r.stopLossBase) settings.stopLossBase = r.stopLossBase;
    if (r.stopLossAfterLastLevel) settings.stopLossAfterLastLevel = true;
    if (r.timeStopHours !== null) settings.timeStopHours = r.timeStopHours;
    if (r.targets.length > 0) {
      // Shares scaled to add up to 100 (the last one takes the rest); profits rise from the take profit.
      const total = r.targets.reduce((sum, t) => sum + t.share, 0);
      let profit = takeProfit;
      let left = 100;
      settings.takeProfitTargets = r.targets.map((t, i) => {
        if (i > 0) profit = profit.plus(new Big(t.step).div(100));
        const share = i === r.targets.length - 1 ? left : Math.max(1, Math.min(left - (r.targets.length - 1 - i), Math.floor((t.share * 100) / total)));
        left -= share;
        return { sharePercent: String(share), profitPercent: profit.toFixed(), trailing: i === 0 ? settings.takeProfitCallbackPercent !== '0' : t.trailing };
      });
      if (r.breakEven) settings.breakEven = true;
    }
    return settings;
  })
  .filter((s) => strategyProblem(s) === null);

interface Tick {
  /** Price move in basis points. */
  move: number;
  /** Milliseconds since the previous tick. */
  elapsed: number;
  mayOpenCycle: boolean;
  replenishClosed: boolean;
  running: boolean;
  /** The order decided on this tick is rejected instead of filled. */
  orderFails: boolean;
}

const tickArb: fc.Arbitrary<Tick> = fc.record({
  move: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -300, max: 300 }) }, { weight: 1, arbitrary: fc.integer({ min: -2500, max: 2500 }) }),
  elapsed: fc.integer({ min: 0, max: 8_000 }),
  mayOpenCycle: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  replenishClosed: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  running: fc.oneof({ weight: 20, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  orderFails: fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

interface Scenario {
  strategy: StrategySettings;
  firstOrderAmount: string;
  firstOrderMultiple: boolean;
  cycleCount: number;
  startPrice: string;
  fee: string;
  /** Where a fee is charged: always in quote, or in the asset the order receives (base on buys, quote on sells). */
  feeIn: 'quote' | 'received';
  /** Amount step: buys and sells round down to it, so sells leave remainders. */
  step: string;
  /** Basis points added to every move: falling, flat or rising markets. */
  drift: number;
  /** The market's smallest order value (quote): partial sales must stay above it, or sell all. */
  minCost: string;
  /** Multiplies each tick's elapsed time: at 1 000 a path spans hours, and time stops fire. */
  timeScale: number;
  ticks: Tick[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  strategy: strategyArb,
  firstOrderAmount: fc.constantFrom('10', '12.5', '100', '7.77'),
  firstOrderMultiple: fc.boolean(),
  cycleCount: fc.constantFrom(1, 2, 5, UNTIL_STOPPED),
  startPrice: fc.constantFrom('100', '0.5', '25000', '0.00123', '3.3333'),
  fee: fc.constantFrom('0', '0.001', '0.00075'),
  feeIn: fc.constantFrom<'quote' | 'received'>('quote', 'received'),
  step: fc.constantFrom('0.00000001', '0.00001', '0.001'),
  drift: fc.constantFrom(-40, -10, 0, 0, 10),
  minCost: fc.constantFrom('0', '1', '5'),
  timeScale: fc.constantFrom(1, 1, 1_000),
  // Long paths: fast-check's default size would keep most of them under a dozen ticks.
  ticks: fc.array(tickArb, { minLength: 1, maxLength: 300, size: 'max' }),
});

type Decider = typeof decide;

interface Logged {
  price: string;
  actions: readonly Action[];
}

const floorTo = (value: Big, step: string) => value.div(step).round(0, Big.roundDown).times(step);

/** How often each exit occurred over the simulated paths: the generators must reach every one. */
const exitsSeen = { partial: 0, widened: 0, loss: 0, time: 0, break_even: 0 };

/** The stop loss's price for an open state, when it is armed; else null. */
const armedStopPrice = (strategy: StrategySettings, state: CycleState): Big | null => {
  if (strategy.stopLossPercent === null || state.firstFillPrice === null || new Big(state.quantity).lte(0)) return null;
  if (strategy.stopLossAfterLastLevel && state.levelsFilled < strategy.levels.length) return null;
  return stopLossPrice(strategy, new Big(state.cost).div(state.quantity), state.firstFillPrice);
};

/**
 * Drives a scenario through a decider and the fill helpers: every order fills
 * at once at the decision price (amounts rounded down to the step) with the
 * fee, unless the tick says it fails. Checks the invariants on every step and
 * returns what was decided at each price.
 */
const simulate = (s: Scenario, decider: Decider, coldCache = false): Logged[] => {
  const fee = new Big(s.fee);
  const maxFunds = new Big(maxCycleFunds(s.strategy, s.firstOrderAmount, s.firstOrderMultiple)).times(fee.plus(1));
  const stopLoss = s.strategy.stopLossPercent;
  const limits = { amountStep: s.step, minAmount: s.step, minCost: s.minCost };
  let state = initialCycleState();
  let price = new Big(s.startPrice);
  let now = 1_700_000_000_000;
  let levelsBought = new Set<number>();
  let cycleSpent = new Big(0);
  let cycleQuantity = new Big(0);
  // Money in and out over the whole path: what was spent equals what was booked against sales plus the position's cost.
  let spentTotal = new Big(0);
  let basisTotal = new Big(0);
  const log: Logged[] = [];
  /** The last decision's price and, when it sold nothing with the stop loss armed, the stop's price. */
  let lastDecided: { price: Big; armed: Big | null } | null = null;

  for (const tick of s.ticks) {
    price = price.times(10_000 + tick.move + s.drift).div(10_000).round(8, Big.roundDown);
    if (price.lt('0.00000001')) price = new Big('0.00000001');
    now += tick.elapsed * s.timeScale;
    const priceText = price.toFixed();
    const params: TaskParams = {
      firstOrderAmount: s.firstOrderAmount,
      firstOrderMultiple: s.firstOrderMultiple,
      cycleCount: s.cycleCount,
      replenishStatus: tick.replenishClosed ? 'replenish_closed' : 'replenish_open',
      running: tick.running,
      feeRate: s.fee,
      limits,
    };
    const strategy = coldCache ? structuredClone(s.strategy) : s.strategy;
    const before = coldCache ? structuredClone(state) : state;
    const d = decider(params, strategy, before, priceText, now, tick.mayOpenCycle);
    log.push({ price: priceText, actions: d.actions });
    const orders = trades(d);
    expect(orders.length).toBeLessThanOrEqual(1);
    // An armed stop loss at or above the price sells at once (a stop before it may sell first).
    const stopPrice = state.phase === 'open' && tick.running && !state.pendingOrder ? armedStopPrice(s.strategy, state) : null;
    if (stopPrice && price.lte(stopPrice)) expect(orders[0]).toMatchObject({ kind: 'sell', reason: 'stop_loss' });
    const previous = lastDecided;
    lastDecided = { price, armed: stopPrice && !tick.orderFails && orders.length === 0 ? stopPrice : null };
    if (!tick.running || state.pendingOrder) expect(d.actions).toEqual([]);
    state = d.state;
    const order = orders[0];
    if (!order) continue;
    expect(state.pendingOrder).toBe(true);
    if (tick.orderFails) {
      state = applyOrderFailed(state);
      continue;
    }
    if (order.kind === 'buy') {
      if (order.reason === 'first') {
        expect(tick.mayOpenCycle).toBe(true);
        expect(order.level).toBe(0);
        levelsBought = new Set();
        cycleSpent = new Big(0);
        // A remainder the last sell could not sell opens the cycle with it.
        cycleQuantity = new Big(state.quantity);
        expect(cycleQuantity.lt(s.step)).toBe(true);
      } else {
        // (a) levels in order, each at most once per cycle, never beyond the template.
        expect(params.replenishStatus).toBe('replenish_open');
        expect(order.level).toBe(state.levelsFilled + 1);
        // No level buys once a target sold.
        expect(state.targetsDone ?? 0).toBe(0);
        expect(order.level).toBeLessThanOrEqual(s.strategy.levels.length);
        expect(levelsBought.has(order.level)).toBe(false);
        levelsBought.add(order.level);
      }
      const gross = floorTo(new Big(order.quoteAmount).div(price), s.step);
      if (gross.eq(0)) {
        // Below the step: the exchange refuses it, as it would a failed order.
        levelsBought.delete(order.level);
        state = applyOrderFailed(state);
        continue;
      }
      const spent = gross.times(price);
      const quantity = s.feeIn === 'received' ? gross.minus(gross.times(fee).round(8, Big.roundUp)) : gross;
      const cost = s.feeIn === 'quote' ? spent.plus(spent.times(fee).round(8, Big.roundUp)) : spent;
      const carried = new Big(order.level === 0 ? state.cost : 0);
      state = applyBuyFill(state, { price: priceText, quantity: quantity.toFixed(), cost: cost.toFixed(), level: order.level, at: now });
      cycleSpent = cycleSpent.plus(cost);
      spentTotal = spentTotal.plus(cost);
      cycleQuantity = cycleQuantity.plus(quantity);
      // (b) one cycle never spends more than the template's maximum (fees aside).
      expect(cycleSpent.lte(maxFunds)).toBe(true);
      if (order.level === 0) expect(new Big(state.cost).eq(carried.plus(cost))).toBe(true);
      // (d) the position is exactly the carried remainder plus this cycle's buy fills.
      expect(state.quantity).toBe(cycleQuantity.toFixed());
    } else if (order.partial) {
      exitsSeen.partial += 1;
      // A target's share: never the whole position, and neither it nor what it leaves is below the market's minimums.
      expect(order.reason).toBe('take_profit');
      const sold = new Big(order.quantity);
      const left = new Big(state.quantity).minus(sold);
      expect(floorTo(sold, s.step).eq(sold)).toBe(true);
      for (const part of [sold, left]) {
        expect(part.gte(limits.minAmount) && part.times(price).gte(limits.minCost)).toBe(true);
      }
      const gross = sold.times(price);
      const proceeds = gross.minus(gross.times(fee).round(8, Big.roundUp));
      const split = splitSale(state, sold.toFixed());
      // A take profit never books a loss, a share of it neither.
      expect(proceeds.minus(split.basis).gte(0)).toBe(true);
      basisTotal = basisTotal.plus(split.basis);
      const done = state.targetsDone ?? 0;
      state = applyPartialSellFill(state, { quantity: sold.toFixed(), proceeds: proceeds.toFixed() });
      expect(state).toMatchObject({ phase: 'open', targetsDone: done + 1, quantity: split.remainder, pendingOrder: false });
      cycleQuantity = new Big(state.quantity);
    } else {
      expect(order.quantity).toBe(state.quantity);
      const value = price.times(state.quantity);
      const sold = floorTo(new Big(state.quantity), s.step);
      const gross = sold.times(price);
      const proceeds = gross.minus(gross.times(fee).round(8, Big.roundUp));
      const split = splitSale(state, sold.toFixed());
      basisTotal = basisTotal.plus(split.basis);
      // (c) a sell below the average cost is only ever a stop loss; a take profit never books a loss.
      if (order.reason === 'stop_loss') exitsSeen[order.stop ?? 'loss'] += 1;
      // A target before the last selling the whole position: its share was widened at the market's minimums.
      else if (order.target !== undefined && order.target < targetsOf(s.strategy).length) exitsSeen.widened += 1;
      if (order.reason === 'take_profit') {
        expect(value.gt(state.cost)).toBe(true);
        expect(proceeds.minus(split.basis).gte(0)).toBe(true);
      } else if (order.stop === 'time') {
        expect(now - state.openedAt!).toBeGreaterThanOrEqual(s.strategy.timeStopHours! * 3_600_000);
      } else if (order.stop === 'break_even') {
        // After a target, at the break-even: selling would no longer cover the cost after the fee.
        expect(s.strategy.breakEven && (state.targetsDone ?? 0) > 0).toBe(true);
        expect(value.times(new Big(1).minus(fee)).lte(state.cost)).toBe(true);
      } else {
        expect(stopLoss).not.toBeNull();
        const stop = armedStopPrice(s.strategy, state);
        expect(stop !== null && price.lte(stop)).toBe(true);
        if (s.strategy.stopLossBase !== 'last_level') expect(value.times(100).lte(new Big(state.cost).times(new Big(100).minus(stopLoss!)))).toBe(true);
        // With the check before each decision (an armed stop at or above the price sells at once), the loss is the stop's
        // plus only this tick's gap below the stop price: the previous price was above it, or the stop was not armed yet.
        if (previous && previous.armed) expect(previous.price.gt(previous.armed)).toBe(true);
      }
      state = applySellFill(state, s.strategy, now, { quantity: sold.toFixed() });
      // (e) the position after a sell is what it could not sell, with the rest of the cost.
      expect(state.quantity).toBe(split.remainder);
      expect(new Big(state.quantity).lt(s.step)).toBe(true);
    }
    // (f) nothing spent is ever lost from the books: booked basis + the position's cost = all spent.
    expect(basisTotal.plus(state.cost).eq(spentTotal)).toBe(true);
  }
  return log;
};

describe('decide: properties over random price paths', () => {
  it('keeps the ladder, funds, no-loss and position invariants', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        simulate(s, decide);
      }),
      { numRuns: 300 },
    );
    // Every exit was reached: shares, a share widened to all at the minimums, and each stop.
    for (const [exit, count] of Object.entries(exitsSeen)) expect(count, exit).toBeGreaterThan(0);
  });

  it('is deterministic, and the float pre-check never changes a decision', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const first = simulate(s, decide);
        expect(simulate(s, decide)).toEqual(first);
        expect(simulate(s, decide, true)).toEqual(first);
        expect(simulate(s, decideExact)).toEqual(first);
      }),
      { numRuns: 150 },
    );
  });

  it('agrees with the exact decision at prices a hair either side of every threshold', () => {
    const nudges = ['0', '1e-15', '-1e-15', '1e-10', '-1e-10', '1e-8', '-1e-8', '1e-6', '-1e-6'];
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 299 }), (s, at) => {
        // Walk the scenario to some open state, then probe its thresholds.
        let state = initialCycleState();
        const params = paramsOf({ firstOrderAmount: s.firstOrderAmount, cycleCount: UNTIL_STOPPED, feeRate: s.fee, limits: { amountStep: s.step, minAmount: s.step, minCost: s.minCost } });
        let price = new Big(s.startPrice);
        for (const tick of s.ticks.slice(0, at + 1)) {
          price = price.times(10_000 + tick.move + s.drift).div(10_000).round(8, Big.roundDown);
          if (price.lt('0.00000001')) price = new Big('0.00000001');
          const d = decide(params, s.strategy, state, price.toFixed(), 0, true);
          const order = trades(d)[0];
          state = d.state;
          if (order?.kind === 'buy') state = fillBuy(state, order, price.toFixed());
          else if (order?.partial) state = applyPartialSellFill(state, { quantity: order.quantity, proceeds: price.times(order.quantity).toFixed() });
          else if (order) state = applySellFill(state, s.strategy, 0);
        }
        if (state.phase !== 'open') return;
        const average = new Big(state.cost).div(state.quantity);
        const targets = targetsOf(s.strategy);
        const target = targets[Math.min(state.targetsDone ?? 0, targets.length - 1)]!;
        const thresholds = [average, average.times(new Big(target.profitPercent).div(100).plus(1))];
        if (s.strategy.stopLossPercent) thresholds.push(average.times(new Big(1).minus(new Big(s.strategy.stopLossPercent).div(100))));
        const stop = armedStopPrice(s.strategy, state);
        if (stop) thresholds.push(stop);
        // The break-even: selling covers the cost after the fee.
        thresholds.push(average.div(new Big(1).minus(s.fee)));
        const level = s.strategy.levels[state.levelsFilled];
        if (level) thresholds.push(new Big(state.firstFillPrice!).times(new Big(1).minus(new Big(level.dropPercent).div(100))));
        if (state.trailingBuy) {
          thresholds.push(new Big(state.trailingBuy.low), new Big(state.trailingBuy.low).times(new Big(s.strategy.replenishCallbackPercent).div(100).plus(1)));
        }
        if (state.trailingSell) {
          const high = new Big(state.trailingSell.high);
          thresholds.push(high, high.times(new Big(1).minus(new Big(s.strategy.takeProfitCallbackPercent).div(100))));
        }
        for (const threshold of thresholds) {
          for (const nudge of nudges) {
            const probe = threshold.times(new Big(nudge).plus(1)).round(20).toFixed();
            for (const replenishStatus of ['replenish_open', 'replenish_closed'] as const) {
              const p = { ...params, replenishStatus };
              expect(decide(p, s.strategy, state, probe, 0, true)).toEqual(decideExact(p, s.strategy, state, probe, 0, true));
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
