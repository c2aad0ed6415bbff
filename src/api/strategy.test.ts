import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import {
  buildLevels,
  describeProblem,
  effectiveTakeProfitPercent,
  firstOrderForInvestment,
  ladder,
  levelMultiples,
  maxCycleFunds,
  sameSettings,
  withBuyFees,
  stepScaleDrops,
  stopLossFiresEarly,
  strategyProblem,
  takeProfitFloorPercent,
  type StrategySettings,
} from './strategy';
import { MAX_CONDITIONS, MAX_INDICATOR_PERIOD, type Condition, type ConditionGroup } from './conditions';

const problem = (s: StrategySettings) => {
  const found = strategyProblem(s);
  return found ? describeProblem(found) : null;
};

/** The 3Commas worked example: base and safety 10 USDT, step 1 %, step scale 1.5, volume scale 2, 5 levels. */
const drops = stepScaleDrops('1', '1.5', 5);
const multiples = levelMultiples('doubling', 5);
const settings: StrategySettings = {
  levels: buildLevels(drops, multiples),
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossPercent: null,
  cooldownSeconds: 60,
};

describe('ladder math', () => {
  it('gives the 3Commas deviations 1, 2.5, 4.75, 8.125, 13.19 %', () => {
    expect(drops).toEqual(['1', '2.5', '4.75', '8.125', '13.1875']);
    expect(Number(drops[4]).toFixed(2)).toBe('13.19');
  });

  it('gives the 3Commas sizes 10, 20, 40, 80, 160 and 320 USDT at most per cycle', () => {
    const rows = ladder(settings, '10', '100');
    expect(rows.map((r) => r.amount)).toEqual(['10', '10', '20', '40', '80', '160']);
    expect(maxCycleFunds(settings, '10')).toBe('320');
    expect(rows.at(-1)?.cumulativeCost).toBe('320');
    // The first order doubled adds 10 more.
    expect(maxCycleFunds(settings, '10', true)).toBe('330');
  });

  it('sizes the first order from a total to invest: a full cycle of every pair with fees never spends more', () => {
    // 32 first orders a cycle (1 + 1 + 2 + 4 + 8 + 16), fees 0.1 %: 500 / 32.032 = 15.609…
    expect(firstOrderForInvestment(settings, '500', 1)).toBe('15.60');
    expect(firstOrderForInvestment(settings, '500', 2)).toBe('7.80');
    expect(firstOrderForInvestment(settings, '500', 1, true)).toBe('15.13');
    expect(firstOrderForInvestment(settings, '0.1', 1)).toBe('0.00');
    for (const [invest, pairs, doubled] of [['500', 1, false], ['10000', 3, true], ['123.45', 7, false], ['33', 2, true]] as const) {
      const first = firstOrderForInvestment(settings, invest, pairs, doubled);
      const spent = withBuyFees(maxCycleFunds(settings, first, doubled)).times(pairs);
      expect(spent.lte(invest)).toBe(true);
      // A cent more would spend more than the investment.
      expect(withBuyFees(maxCycleFunds(settings, new Big(first).plus('0.01').toFixed(), doubled)).times(pairs).gt(invest)).toBe(true);
    }
  });

  it('computes trigger prices, the average after each fill and the take-profit price', () => {
    const rows = ladder(settings, '10', '100');
    expect(rows.map((r) => r.price)).toEqual(['100', '99', '97.5', '95.25', '91.875', '86.8125']);
    // After the first level: 20 USDT bought 0.1 + 0.1010101 units.
    expect(Number(rows[1]!.averagePrice)).toBeCloseTo(20 / (10 / 100 + 10 / 99), 6);
    expect(Number(rows[1]!.takeProfitPrice)).toBeCloseTo((20 / (10 / 100 + 10 / 99)) * 1.015, 6);
    // The average only falls as the ladder goes down.
    for (let i = 1; i < rows.length; i++) expect(Number(rows[i]!.averagePrice)).toBeLessThan(Number(rows[i - 1]!.averagePrice));
  });

  it('has equal and arithmetic amount generators and an equal-step drop generator', () => {
    expect(levelMultiples('equal', 3, '1.5')).toEqual(['1.5', '1.5', '1.5']);
    expect(levelMultiples('arithmetic', 4, '1', '0.5')).toEqual(['1', '1.5', '2', '2.5']);
    expect(stepScaleDrops('2', '1', 4)).toEqual(['2', '4', '6', '8']);
  });

  it('never uses binary floating point for money', () => {
    const rows = ladder({ levels: [{ dropPercent: '10', multiple: '3' }], takeProfitPercent: '1' }, '0.1', '0.3');
    expect(rows[1]!.amount).toBe('0.3');
    expect(rows[1]!.cumulativeCost).toBe('0.4');
  });

  it('refuses templates that make no sense', () => {
    expect(problem(settings)).toBeNull();
    expect(problem({ ...settings, levels: [{ dropPercent: '2', multiple: '1' }, { dropPercent: '1', multiple: '1' }] })).toMatch(/increase/);
    expect(problem({ ...settings, levels: [{ dropPercent: '100', multiple: '1' }] })).toMatch(/below 100/);
    expect(problem({ ...settings, levels: [{ dropPercent: '1', multiple: '0' }] })).toMatch(/multiple/);
    expect(problem({ ...settings, takeProfitPercent: '0' })).toMatch(/take profit/);
    expect(problem({ ...settings, takeProfitCallbackPercent: '2' })).toMatch(/callback/);
    expect(problem({ ...settings, stopLossPercent: '10' })).toMatch(/deeper than the last level/);
    expect(problem({ ...settings, stopLossPercent: '20' })).toBeNull();
    expect(problem({ ...settings, cooldownSeconds: -1 })).toMatch(/cooldown/);
  });

  it("refuses a take profit that cannot cover a round trip's fees, after its callback", () => {
    expect(takeProfitFloorPercent()).toBe('0.25');
    expect(takeProfitFloorPercent('0.0015')).toBe('0.35');
    expect(effectiveTakeProfitPercent({ takeProfitPercent: '1.5', takeProfitCallbackPercent: '0.3' })).toBe('1.1955');
    expect(strategyProblem({ ...settings, takeProfitPercent: '0.12', takeProfitCallbackPercent: '0' })).toEqual({ code: 'take_profit_floor', floor: '0.25' });
    expect(problem({ ...settings, takeProfitPercent: '0.12', takeProfitCallbackPercent: '0' })).toBe('the take profit after its callback must cover the fees of a buy and a sell: at least 0.25 %');
    expect(strategyProblem({ ...settings, takeProfitPercent: '0.5', takeProfitCallbackPercent: '0.3' })).toMatchObject({ code: 'take_profit_floor' });
    expect(strategyProblem({ ...settings, takeProfitPercent: '0.3', takeProfitCallbackPercent: '0' })).toBeNull();
    expect(strategyProblem({ ...settings, takeProfitPercent: '0.3', takeProfitCallbackPercent: '0' }, '0.0015')).toMatchObject({ code: 'take_profit_floor', floor: '0.35' });
  });

  it('judges the stop loss on the average cost with fees, as the engine does', () => {
    const one = { ...settings, levels: [{ dropPercent: '5', multiple: '1' }] };
    // Deeper than the level's 5 %, yet on the fee-inclusive average it fires at 100.1 % x 94.95 % = 95.045 %, before the level.
    expect(stopLossFiresEarly({ ...one, stopLossPercent: '5.05' })).toBe(1);
    expect(strategyProblem({ ...one, stopLossPercent: '5.05' })).toEqual({ code: 'stop_loss_early', level: 1 });
    expect(stopLossFiresEarly({ ...one, stopLossPercent: '5.05' }, '0')).toBeNull();
    expect(strategyProblem({ ...one, stopLossPercent: '5.2' })).toBeNull();
  });
});

describe('sameSettings', () => {
  const targets = [
    { sharePercent: '50', profitPercent: '1.5', trailing: false },
    { sharePercent: '50', profitPercent: '3', trailing: true },
  ];
  it('reads written-alike numbers as one, and templates without exits alike whether the fields are absent or off', () => {
    expect(sameSettings(settings, { ...settings, takeProfitPercent: '1.50', stopLossBase: 'average', breakEven: false, takeProfitTargets: [], timeStopHours: null })).toBe(true);
    expect(sameSettings({ ...settings, takeProfitTargets: targets }, { ...settings, takeProfitTargets: [{ ...targets[0]!, profitPercent: '1.50' }, { ...targets[1]!, sharePercent: '50.0' }] })).toBe(true);
  });
  it('tells apart templates that differ only in their exits', () => {
    const withTargets = { ...settings, takeProfitTargets: targets };
    expect(sameSettings(settings, withTargets)).toBe(false);
    expect(sameSettings(withTargets, { ...withTargets, takeProfitTargets: [targets[0]!, { ...targets[1]!, trailing: false }] })).toBe(false);
    expect(sameSettings({ ...settings, stopLossPercent: '5' }, { ...settings, stopLossPercent: '5', stopLossBase: 'last_level' })).toBe(false);
    expect(sameSettings(settings, { ...settings, stopLossAfterLastLevel: true })).toBe(false);
    expect(sameSettings(settings, { ...settings, timeStopHours: 48 })).toBe(false);
    expect(sameSettings(withTargets, { ...withTargets, breakEven: true })).toBe(false);
  });
});

describe('signal conditions (issue 29)', () => {
  const rsi = { kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' } as const;
  const withStart = (...conditions: Array<Condition | ConditionGroup>): StrategySettings => ({ ...settings, conditions: { start: { mode: 'all', conditions } } });
  const code = (s: StrategySettings) => strategyProblem(s);

  it('takes valid gates and names what is wrong with the others, with the gate and the condition', () => {
    expect(code(withStart(rsi, { mode: 'any', conditions: [{ kind: 'alert' }, { kind: 'price_range', min: '100', max: null }] }))).toBeNull();
    expect(code({ ...settings, conditions: { start: null, replenish: null, close: null } })).toBeNull();
    expect(code(withStart())).toEqual({ code: 'conditions_count', gate: 'start' });
    expect(code(withStart(...Array.from({ length: MAX_CONDITIONS + 1 }, () => rsi)))).toEqual({ code: 'conditions_count', gate: 'start' });
    expect(code(withStart({ mode: 'any', conditions: [{ mode: 'all', conditions: [rsi] }] }))).toEqual({ code: 'conditions_nesting', gate: 'start' });
    expect(code(withStart(rsi, { ...rsi, period: 1 }))).toEqual({ code: 'indicator_period', gate: 'start', condition: 2 });
    expect(code(withStart({ kind: 'ma_cross', average: 'ema', period: MAX_INDICATOR_PERIOD + 1, timeframe: '4h', side: 'above' }))).toMatchObject({ code: 'indicator_period' });
    expect(code(withStart({ ...rsi, value: '100' }))).toMatchObject({ code: 'rsi_value' });
    expect(code(withStart({ ...rsi, value: '0' }))).toMatchObject({ code: 'rsi_value' });
    expect(code(withStart({ kind: 'bollinger', period: 20, deviations: '0', timeframe: '1h', band: 'lower' }))).toMatchObject({ code: 'bollinger_deviations' });
    expect(code(withStart({ kind: 'price_range', min: null, max: null }))).toMatchObject({ code: 'price_range' });
    expect(code(withStart({ kind: 'price_range', min: '200', max: '100' }))).toMatchObject({ code: 'price_range' });
    expect(code({ ...settings, conditions: { close: { mode: 'any', conditions: [{ kind: 'alert' }, { ...rsi, op: 'above', value: '101' }] } } })).toEqual({ code: 'rsi_value', gate: 'close', condition: 2 });
    expect(problem(withStart(rsi, { ...rsi, value: '100' }))).toBe('start conditions, condition 2: the RSI value must be above 0 and below 100');
  });

  it('compares gates by value, whatever the key order or the way a number is written', () => {
    const a = withStart(rsi, { kind: 'bollinger', period: 20, deviations: '2', timeframe: '1h', band: 'lower' });
    const b = withStart({ value: '30.0', op: 'below', timeframe: '1h', period: 14, kind: 'rsi' }, { kind: 'bollinger', period: 20, deviations: '2.00', timeframe: '1h', band: 'lower' });
    expect(sameSettings(a, b)).toBe(true);
    expect(sameSettings(settings, { ...settings, conditions: null })).toBe(true);
    expect(sameSettings(settings, { ...settings, conditions: { start: null } })).toBe(true);
    expect(sameSettings(a, withStart(rsi))).toBe(false);
    expect(sameSettings(a, { ...a, conditions: { replenish: a.conditions!.start } })).toBe(false);
    expect(sameSettings(withStart({ ...rsi, timeframe: '4h' }), withStart(rsi))).toBe(false);
  });
});
