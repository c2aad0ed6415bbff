import { describe, expect, it } from 'vitest';
import type { Condition, ConditionGroup } from '../../../../src/api/conditions';
import { describeCondition, describeGroup, describeWaiting, evaluateGate, gateSignals } from './conditions';
import { SymbolIndicators, type IndicatorReadings, type Side } from './indicators';

/** Readings as a symbol's indicators would give them. */
const readings = (close: string | null, values: Record<string, string | null> = {}, sides: Record<string, [Side | null, Side | null]> = {}): IndicatorReadings => ({
  minute: 0,
  close,
  value: (key) => values[key] ?? null,
  side: (key) => sides[key]?.[1] ?? null,
  previousSide: (key) => sides[key]?.[0] ?? null,
});

const rsiBelow30: Condition = { kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' };
const crossUp: Condition = { kind: 'ma_cross', average: 'sma', period: 20, timeframe: '4h', side: 'above' };
const lowerBand: Condition = { kind: 'bollinger', period: 20, deviations: '2', timeframe: '1h', band: 'lower' };

describe('evaluateGate', () => {
  it('RSI below / above: strict, as decimals; nothing holds while warming up', () => {
    const gate = (value: string | null, op: 'below' | 'above' = 'below') => evaluateGate({ mode: 'all', conditions: [{ ...rsiBelow30, op }] }, readings('100', { 'rsi:14:1h': value }));
    expect(gate('29.9999999999')).toEqual({ holds: true, readings: [{ path: [0], current: '29.9999999999', holds: true }] });
    expect(gate('30').holds).toBe(false);
    expect(gate('30.0000000001', 'above').holds).toBe(true);
    expect(gate('30', 'above').holds).toBe(false);
    expect(gate(null)).toEqual({ holds: false, readings: [{ path: [0], current: null, holds: false }] });
  });

  it('a moving-average cross holds only on the minute the price changes side', () => {
    const at = (previous: Side | null, now: Side | null) => evaluateGate({ mode: 'all', conditions: [crossUp] }, readings('101', { 'sma:20:4h': '100' }, { 'sma:20:4h': [previous, now] })).holds;
    expect(at('below', 'above')).toBe(true);
    expect(at('on', 'above')).toBe(true);
    expect(at('above', 'above')).toBe(false);
    expect(at(null, 'above')).toBe(false);
    expect(at('below', 'on')).toBe(false);
  });

  it('a Bollinger band is touched at it or beyond; a price range includes its bounds', () => {
    const band = (close: string) => evaluateGate({ mode: 'all', conditions: [lowerBand] }, readings(close, { 'bb:20:2:1h:lower': '95.5' })).holds;
    expect([band('95.4'), band('95.5'), band('95.51')]).toEqual([true, true, false]);
    const upper = evaluateGate({ mode: 'all', conditions: [{ ...lowerBand, band: 'upper' }] }, readings('105', { 'bb:20:2:1h:upper': '105' }));
    expect(upper.holds).toBe(true);
    const range = (close: string | null) => evaluateGate({ mode: 'all', conditions: [{ kind: 'price_range', min: '100', max: '200' }] }, readings(close)).holds;
    expect([range('99.99'), range('100'), range('200'), range('200.01'), range(null)]).toEqual([false, true, true, false, false]);
    expect(evaluateGate({ mode: 'all', conditions: [{ kind: 'price_range', min: null, max: '5' }] }, readings('0.1')).holds).toBe(true);
  });

  it('combines all / any with one level of nesting, reading every condition with its path; an alert never holds by itself', () => {
    const group: ConditionGroup = { mode: 'all', conditions: [rsiBelow30, { mode: 'any', conditions: [{ kind: 'alert' }, { kind: 'price_range', min: null, max: '100' }] }] };
    const low = readings('90', { 'rsi:14:1h': '25' });
    expect(evaluateGate(group, low)).toEqual({
      holds: true,
      readings: [
        { path: [0], current: '25', holds: true },
        { path: [1, 0], current: null, holds: false },
        { path: [1, 1], current: '90', holds: true },
      ],
    });
    expect(evaluateGate(group, readings('110', { 'rsi:14:1h': '25' })).holds).toBe(false);
    expect(evaluateGate({ mode: 'any', conditions: [{ kind: 'alert' }] }, low).holds).toBe(false);
  });

  it('gates: an absent start or replenish gate holds, an absent close gate never closes', () => {
    const now = readings('90', { 'rsi:14:1h': '41.2' });
    expect(gateSignals(null, now)).toEqual({ start: true, replenish: true, close: false });
    expect(gateSignals({ start: { mode: 'all', conditions: [rsiBelow30] }, close: { mode: 'any', conditions: [{ kind: 'price_range', min: '80', max: null }] } }, now, 'buy_level')).toEqual({
      start: false,
      replenish: true,
      close: true,
      force: 'buy_level',
    });
  });

  it('reads a real symbol\'s indicators', () => {
    const indicators = new SymbolIndicators(['rsi:2:1m']);
    for (const [i, close] of ['10', '9', '8'].entries()) indicators.push({ time: i * 60_000, close });
    // Two falls in a row: RSI(2) is 0.
    expect(evaluateGate({ mode: 'all', conditions: [{ ...rsiBelow30, period: 2, timeframe: '1m' }] }, indicators)).toEqual({ holds: true, readings: [{ path: [0], current: '0', holds: true }] });
  });
});

describe('describing conditions', () => {
  it('writes each condition and group as plain text, and the waiting line with the current values', () => {
    expect(describeCondition(rsiBelow30)).toBe('RSI(14,1h) < 30');
    expect(describeCondition({ ...rsiBelow30, op: 'above', value: '70.50' })).toBe('RSI(14,1h) > 70.5');
    expect(describeCondition({ ...crossUp, average: 'ema', side: 'below' })).toBe('price crosses below EMA(20,4h)');
    expect(describeCondition(lowerBand)).toBe('price <= BB lower(20,2,1h)');
    expect(describeCondition({ kind: 'price_range', min: '100', max: '200.0' })).toBe('100 <= price <= 200');
    expect(describeCondition({ kind: 'price_range', min: null, max: '200' })).toBe('price <= 200');
    expect(describeCondition({ kind: 'alert' })).toBe('TradingView alert');
    const group: ConditionGroup = { mode: 'all', conditions: [rsiBelow30, { mode: 'any', conditions: [{ kind: 'alert' }, { kind: 'price_range', min: '100', max: null }] }] };
    expect(describeGroup(group)).toBe('RSI(14,1h) < 30 and (TradingView alert or price >= 100)');
    const now = readings('95', { 'rsi:14:1h': '41.2345' });
    expect(describeWaiting(group, evaluateGate(group, now))).toBe('RSI(14,1h) < 30, now 41.23; TradingView alert; price >= 100, now 95');
  });
});
