import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AlertAction, StrategyConditions } from '../../../../src/api/conditions';
import { buildLevels, levelMultiples, stepScaleDrops, strategyProblem, type StrategySettings } from '../../../../src/api/strategy';
import { gateSignals } from './conditions';
import {
  UNTIL_STOPPED,
  alertOutcome,
  applyBuyFill,
  applySellFill,
  decide,
  decideExact,
  initialCycleState,
  quietBounds,
  type Action,
  type CycleState,
  type Decision,
  type Signals,
  type TaskParams,
} from './decide';
import { SymbolIndicators } from './indicators';

const strategyOf = (overrides: Partial<StrategySettings> = {}): StrategySettings => ({
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '2' },
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
  feeRate: '0.001',
  ...overrides,
});

const GATES_HOLD: Signals = { start: true, replenish: true, close: false };
const signals = (overrides: Partial<Signals>): Signals => ({ ...GATES_HOLD, ...overrides });

/** A fill of a buy at `price`, the fee in quote. */
const fillBuy = (state: CycleState, action: Action, price: string, fee = '0.001', at = 0): CycleState => {
  if (action.kind !== 'buy') throw new Error(`not a buy: ${JSON.stringify(action)}`);
  const quantity = new Big(action.quoteAmount).div(price).round(8, Big.roundDown);
  return applyBuyFill(state, { price, quantity: quantity.toFixed(), cost: new Big(action.quoteAmount).times(new Big(1).plus(fee)).toFixed(), level: action.level, at });
};

const openAt100 = (params = paramsOf(), strategy = strategyOf()): CycleState => {
  const d = decide(params, strategy, initialCycleState(), '100', 0, true);
  return fillBuy(d.state, d.actions[0]!, '100');
};

describe('decide: signals, worked examples', () => {
  it('a start gate that does not hold opens no cycle and says so once; it opens when the gate holds', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    let d = decide(params, strategy, initialCycleState(), '100', 0, true, signals({ start: false }));
    expect(d.actions).toEqual([{ kind: 'event', event: 'condition_wait' }]);
    expect(d.state).toMatchObject({ phase: 'ready', conditionWait: true, pendingOrder: false });
    const waiting = d.state;
    expect(decide(params, strategy, waiting, '90', 1, true, signals({ start: false }))).toEqual({ state: waiting, actions: [] });
    d = decide(params, strategy, waiting, '90', 2, true);
    expect(d.actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10' }]);
    expect(d.state.conditionWait).toBeUndefined();
  });

  it('after a cycle: the cooldown first, then the wait for the start gate', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    const sold = applySellFill(openAt100(params, strategy), strategy, 1_000);
    expect(decide(params, strategy, sold, '100', 30_000, true, signals({ start: false })).actions).toEqual([]);
    const d = decide(params, strategy, sold, '100', 61_000, true, signals({ start: false }));
    expect(d.actions).toEqual([{ kind: 'event', event: 'condition_wait' }]);
    // Without fuel the task waits for that first (cycle_wait), and for the gate once it may open again.
    const noFuel = decide(params, strategy, sold, '100', 61_000, false, signals({ start: false }));
    expect(noFuel.actions).toEqual([{ kind: 'event', event: 'cycle_wait' }]);
    expect(decide(params, strategy, noFuel.state, '100', 62_000, true, signals({ start: false })).actions).toEqual([{ kind: 'event', event: 'condition_wait' }]);
  });

  it('a replenish gate that does not hold keeps a triggered level from buying; it buys once the gate holds', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    const state = openAt100(params, strategy);
    expect(decide(params, strategy, state, '97', 0, true, signals({ replenish: false })).actions).toEqual([]);
    expect(decide(params, strategy, state, '97', 0, true).actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);

    // Trailing: the touch and the low go on, the rebound's buy waits for the gate.
    const trailing = strategyOf({ replenishCallbackPercent: '1' });
    let s = openAt100(params, trailing);
    let d = decide(params, trailing, s, '98', 0, true, signals({ replenish: false }));
    expect(d.actions).toEqual([{ kind: 'event', event: 'replenish_touched', level: 1 }]);
    s = d.state;
    d = decide(params, trailing, s, '97', 0, true, signals({ replenish: false }));
    expect(d.state.trailingBuy).toEqual({ level: 1, low: '97' });
    s = d.state;
    expect(decide(params, trailing, s, '98', 0, true, signals({ replenish: false })).actions).toEqual([]);
    expect(decide(params, trailing, s, '98', 0, true).actions).toEqual([{ kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10' }]);
  });

  it('a close signal sells all only when the sale covers the cost after the fee; take profit is unchanged without it', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    const state = openAt100(params, strategy);
    // Cost 10.01 for 0.1: covered above 10.01 / 0.1 / 0.999 = 100.2002...
    expect(decide(params, strategy, state, '100.2', 0, true, signals({ close: true })).actions).toEqual([]);
    expect(decide(params, strategy, state, '100.21', 0, true, signals({ close: true })).actions).toEqual([{ kind: 'sell', reason: 'signal', quantity: '0.1' }]);
    expect(decide(params, strategy, state, '100.21', 0, true).actions).toEqual([]);
    // The quiet range narrows to below the break-even while the signal is on.
    const quiet = quietBounds(params, strategy, state)!;
    const closing = quietBounds(params, strategy, state, signals({ close: true }))!;
    expect(closing.below).toBeLessThan(quiet.below);
    expect(closing.below).toBeLessThan(100.2003);
    expect(closing.below).toBeGreaterThan(100.2);
  });

  it('alerts force their action: a cycle now (cooldown and gate skipped), the next level, the position sold even at a loss', () => {
    const params = paramsOf();
    const strategy = strategyOf();
    const sold = applySellFill(openAt100(params, strategy), strategy, 1_000);
    const start = decide(params, strategy, sold, '100', 2_000, true, signals({ start: false, force: 'start_cycle' }));
    expect(start.actions).toEqual([{ kind: 'buy', reason: 'first', level: 0, quoteAmount: '10', alert: true }]);
    // No fuel: not even an alert opens a cycle.
    expect(decide(params, strategy, sold, '100', 2_000, false, signals({ force: 'start_cycle' })).actions).toEqual([{ kind: 'event', event: 'cycle_wait' }]);

    const state = openAt100(params, strategy);
    expect(decide(params, strategy, state, '99.5', 0, true, signals({ replenish: false, force: 'buy_level' })).actions).toEqual([
      { kind: 'buy', reason: 'replenish', level: 1, quoteAmount: '10', alert: true },
    ]);
    expect(decide(params, strategy, state, '90', 0, true, signals({ force: 'close_position' })).actions).toEqual([{ kind: 'sell', reason: 'signal', quantity: '0.1', alert: true }]);

    expect(alertOutcome(params, strategy, state, 'start_cycle')).toBe('never');
    expect(alertOutcome(params, strategy, state, 'buy_level')).toBe('acts');
    expect(alertOutcome(params, strategy, state, 'close_position')).toBe('acts');
    expect(alertOutcome(params, strategy, sold, 'start_cycle')).toBe('acts');
    expect(alertOutcome(params, strategy, sold, 'close_position')).toBe('never');
    expect(alertOutcome(params, strategy, { ...state, pendingOrder: true }, 'close_position')).toBe('later');
    expect(alertOutcome(paramsOf({ cycleCount: 1 }), strategy, sold, 'start_cycle')).toBe('never');
    const allLevels = { ...state, levelsFilled: 2 };
    expect(alertOutcome(params, strategy, allLevels, 'buy_level')).toBe('never');
    expect(decide(params, strategy, allLevels, '99.9', 0, true, signals({ force: 'buy_level' })).actions).toEqual([]);
  });
});

// ---- Properties over random price paths -------------------------------------------------

const strategyArb: fc.Arbitrary<StrategySettings> = fc
  .record({
    count: fc.integer({ min: 0, max: 5 }),
    firstStep: fc.integer({ min: 20, max: 600 }),
    stepScale: fc.constantFrom('1', '1.5'),
    takeProfit: fc.integer({ min: 30, max: 500 }),
    callbackShare: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9_000 })),
    replenishCallback: fc.constantFrom('0', '0.5', '2'),
    stopLossExtra: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
    cooldownSeconds: fc.integer({ min: 0, max: 20 }),
  })
  .map((r): StrategySettings => {
    const levels = buildLevels(stepScaleDrops(new Big(r.firstStep).div(100).toFixed(), r.stepScale, r.count), levelMultiples('doubling', r.count));
    const lastDrop = levels.length ? new Big(levels.at(-1)!.dropPercent) : new Big(0);
    const takeProfit = new Big(r.takeProfit).div(100);
    return {
      levels,
      takeProfitPercent: takeProfit.toFixed(),
      takeProfitCallbackPercent: takeProfit.times(r.callbackShare).div(10_000).round(4, Big.roundDown).toFixed(),
      replenishCallbackPercent: r.replenishCallback,
      stopLossPercent: r.stopLossExtra === null ? null : lastDrop.plus(r.stopLossExtra).toFixed(),
      cooldownSeconds: r.cooldownSeconds,
    };
  })
  .filter((s) => strategyProblem(s) === null);

interface Tick {
  move: number;
  mayOpenCycle: boolean;
  start: boolean;
  replenish: boolean;
  close: boolean;
  force: AlertAction | null;
}

const tickArb: fc.Arbitrary<Tick> = fc.record({
  move: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -300, max: 300 }) }, { weight: 1, arbitrary: fc.integer({ min: -2000, max: 2000 }) }),
  mayOpenCycle: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  start: fc.boolean(),
  replenish: fc.boolean(),
  close: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  force: fc.oneof({ weight: 20, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom<AlertAction>('start_cycle', 'buy_level', 'close_position') }),
});

const scenarioArb = fc.record({
  strategy: strategyArb,
  cycleCount: fc.constantFrom(2, 5, UNTIL_STOPPED),
  startPrice: fc.constantFrom('100', '0.5', '25000', '0.00123'),
  fee: fc.constantFrom('0', '0.001'),
  drift: fc.constantFrom(-20, 0, 0, 15),
  ticks: fc.array(tickArb, { minLength: 1, maxLength: 300, size: 'max' }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

type SignalsOf = (tick: Tick, price: string, time: number) => Signals | undefined;
type Decider = typeof decide;

/** Drives a scenario: one tick per minute, every order filled at the decision price with the fee in quote; returns what was decided. */
const simulate = (s: Scenario, signalsOf: SignalsOf, decider: Decider = decide, check?: (d: Decision, before: CycleState, price: string, signals: Signals | undefined) => void) => {
  let state = initialCycleState();
  let price = new Big(s.startPrice);
  let now = 1_700_000_000_000 - (1_700_000_000_000 % 60_000);
  const log: Array<readonly Action[]> = [];
  for (const tick of s.ticks) {
    price = price.times(10_000 + tick.move + s.drift).div(10_000).round(8, Big.roundDown);
    if (price.lt('0.0001')) price = new Big('0.0001');
    now += 60_000;
    const text = price.toFixed();
    const params = paramsOf({ cycleCount: s.cycleCount, feeRate: s.fee });
    const given = signalsOf(tick, text, now);
    const d = decider(params, s.strategy, state, text, now, tick.mayOpenCycle, given);
    check?.(d, state, text, given);
    log.push(d.actions);
    state = d.state;
    const order = d.actions.find((a) => a.kind !== 'event');
    if (!order) continue;
    if (order.kind === 'buy') {
      state = fillBuy(state, order, text, s.fee, now);
      if (new Big(state.quantity).lte(0)) state = { ...state, pendingOrder: false };
    } else {
      state = applySellFill(state, s.strategy, now);
    }
  }
  return log;
};

const ticksOf = (s: Scenario) => s.ticks;

describe('decide: signal properties over random price paths', () => {
  it('a start condition that never holds opens no cycle', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const log = simulate(s, () => signals({ start: false }));
        expect(log.flat().filter((a) => a.kind !== 'event')).toEqual([]);
        // It says it waits once, as soon as it may open a cycle.
        const waits = log.flat().filter((a) => a.kind === 'event' && a.event === 'condition_wait').length;
        expect(waits).toBe(ticksOf(s).some((t) => t.mayOpenCycle) ? 1 : 0);
      }),
      { numRuns: 150 },
    );
  });

  it('conditions that always hold, through the indicators and the gates, change nothing', () => {
    const always: StrategyConditions = {
      start: { mode: 'all', conditions: [{ kind: 'price_range', min: '0.00000001', max: null }] },
      replenish: { mode: 'any', conditions: [{ kind: 'alert' }, { mode: 'all', conditions: [{ kind: 'price_range', min: null, max: '1000000000' }] }] },
    };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const indicators = new SymbolIndicators();
        // The gates' readings at each price: the minute that just closed at it.
        const viaGates: SignalsOf = (_tick, price, time) => {
          indicators.push({ time: time - 60_000, close: price });
          return gateSignals(always, indicators);
        };
        expect(simulate(s, viaGates)).toEqual(simulate(s, () => undefined));
      }),
      { numRuns: 150 },
    );
  });

  it('a signal close never books a loss; any signals and alerts decide as the exact decision, warm cache or cold', () => {
    let closes = 0;
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const random: SignalsOf = (tick) => ({ start: tick.start, replenish: tick.replenish, close: tick.close, force: tick.force });
        const first = simulate(s, random, decide, (d, before, price, given) => {
          const sale = d.actions.find((a) => a.kind === 'sell');
          if (sale?.kind === 'sell' && sale.reason === 'signal' && !sale.alert) {
            closes += 1;
            expect(given?.close).toBe(true);
            const value = new Big(price).times(before.quantity);
            expect(value.times(new Big(1).minus(s.fee)).gt(before.cost)).toBe(true);
          }
          // A gate that does not hold never lets its action through.
          for (const action of d.actions) {
            if (action.kind === 'buy' && !action.alert) expect(action.reason === 'first' ? given?.start : given?.replenish).toBe(true);
          }
        });
        expect(simulate(s, random, decideExact)).toEqual(first);
        const cold: Decider = (params, strategy, state, ...rest) => decide(params, structuredClone(strategy), structuredClone(state), ...rest);
        expect(simulate(s, random, cold)).toEqual(first);
      }),
      { numRuns: 150 },
    );
    expect(closes).toBeGreaterThan(0);
  });
});
